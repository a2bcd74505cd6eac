import { Logger } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { Candle } from '../../market/candle-stats';
import { rollUpBars } from '../../market/bars/bar-roll-up';
import { ONE_DAY, ONE_MINUTE, parseChartResolution } from '../../market/bars/chart-resolution';
import { randomTrades } from '../../market/bars/testing/random-trades';
import { tradeMinuteBars } from '../../market/bars/trade-minute-bars';
import { Trade } from '../../market/trade';
import { tradeCandles } from '../../market/trade-candles';
import { TradeColumns } from '../../market/trade-columns';
import { BackfillState, BarArchive, HourBlock } from '../../store/bar-archive';
import { market } from '../../store/testing/state-store-contract';
import { MarketViews } from '../views/market-views';
import { StoredChartBars } from './stored-chart-bars';

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
const BTC = market('btc_usdt');
/** A Wednesday, on a minute: the minute at exactly now - 24h is the archive's, the next the trades'. */
const NOW = Date.UTC(2024, 4, 15, 12, 30);
const EDGE = NOW - DAY;
const FIRST_HOUR = NOW - 45 * DAY - (NOW % HOUR);
const resolution = (name: string) => parseChartResolution(name)!;

/** The archive in memory, counting what is read of it. */
class FakeArchive implements BarArchive {
  readonly blocks = new Map<number, HourBlock>();
  state: BackfillState = {};
  readonly reads: [number, number][] = [];

  async readHours(_instrument: string, from: number, to: number): Promise<HourBlock[]> {
    this.reads.push([from, to]);
    return [...this.blocks.values()]
      .filter((block) => block.hourStart >= from && block.hourStart < to)
      .sort((a, b) => a.hourStart - b.hourStart);
  }
  async writeHours(_instrument: string, blocks: readonly HourBlock[]): Promise<void> {
    for (const block of blocks) this.blocks.set(block.hourStart, block);
  }
  async readBackfill(): Promise<BackfillState> {
    return this.state;
  }
  async writeBackfill(_instrument: string, state: BackfillState): Promise<void> {
    this.state = state;
  }
  /** Hours read that end before `time`. */
  hoursReadBefore(time: number): number {
    return this.reads.filter(([from]) => from < time).length;
  }
}

function trade(id: string, time: number, price: string, amount = '1'): Trade {
  return { id, instrument: BTC.instrument, price, amount, side: 'buy', time };
}

/** 45 days of trades, three of them around the minute at exactly now - 24h, one in the minute now is in. */
const trades: Trade[] = [
  ...randomTrades(3, 30_000, FIRST_HOUR, NOW - MINUTE).filter(
    (one) => one.time < EDGE - MINUTE || one.time >= EDGE + 2 * MINUTE,
  ),
  trade('1', EDGE, '1'),
  trade('2', EDGE + 30_000, '2'),
  trade('3', EDGE + MINUTE, '3'),
  trade('4', NOW - 5_000, '4'),
].sort((a, b) => a.time - b.time);
/** Every minute as the exchange's trades make it. */
const truth = tradeMinuteBars(TradeColumns.of(trades), FIRST_HOUR, NOW + MINUTE);

/** Blocks of every closed hour, sealed from every trade; the minutes the trades give are spoiled, never to be served. */
function sealedBlocks(): HourBlock[] {
  const blocks: HourBlock[] = [];
  for (let hour = FIRST_HOUR; hour + HOUR <= NOW; hour += HOUR) {
    const bars = truth
      .filter((bar) => bar.start >= hour && bar.start < hour + HOUR)
      .map((bar) => (bar.start > EDGE ? { ...bar, volume: '999' } : bar));
    if (bars.length > 0) blocks.push({ hourStart: hour, source: 'trades', bars });
  }
  return blocks;
}

const inRange = (bars: readonly Candle[], from: number, to: number) =>
  bars.filter((bar) => bar.start >= from && bar.start < to);

describe('StoredChartBars', () => {
  let archive: FakeArchive;
  let windowTrades: Trade[];
  let chartBars: StoredChartBars;
  let clock: number;

  beforeEach(async () => {
    clock = NOW;
    jest.spyOn(Date, 'now').mockImplementation(() => clock);
    archive = new FakeArchive();
    await archive.writeHours(BTC.instrument, sealedBlocks());
    archive.state = { coveredFrom: FIRST_HOUR, sealedThrough: NOW - (NOW % HOUR) };
    // The trade window as the listings read it: the trades of the last 24 hours.
    windowTrades = trades.filter((one) => one.time > EDGE);
    const views = { tradeList: async () => TradeColumns.of(windowTrades) } as unknown as MarketViews;
    chartBars = new StoredChartBars(views, archive, { CHART_HISTORY_DAYS: 365 } as AppConfig);
  });

  afterEach(() => jest.restoreAllMocks());

  it('takes the minute at exactly now - 24h from the archive and the next from the trades', async () => {
    const answer = await chartBars.bars(BTC, ONE_MINUTE, { from: EDGE - 2 * HOUR, to: EDGE + 2 * HOUR });
    expect(answer.bars).toEqual(inRange(truth, EDGE - 2 * HOUR, EDGE + 2 * HOUR));
    expect(answer.bars.find((bar) => bar.start === EDGE)).toMatchObject({
      open: '1',
      close: '2',
      volume: '2',
    });
    expect(answer.bars.find((bar) => bar.start === EDGE + MINUTE)).toMatchObject({ open: '3', volume: '1' });
    expect(answer.previous).toBe(inRange(truth, 0, EDGE - 2 * HOUR).at(-1)!.start);
  });

  it('gives every minute of the history once, the open one last', async () => {
    const answer = await chartBars.bars(BTC, ONE_MINUTE, { from: 0, to: NOW + DAY });
    expect(answer.bars).toEqual(truth);
    expect(answer.bars.at(-1)).toMatchObject({ start: NOW - MINUTE, close: '4' });
    expect(answer.previous).toBeUndefined();
  });

  it('counts back the newest bars before to, and says where the one before them starts', async () => {
    const answer = await chartBars.bars(BTC, ONE_MINUTE, { from: NOW, to: EDGE + HOUR, countback: 500 });
    const before = inRange(truth, 0, EDGE + HOUR);
    expect(answer.bars).toEqual(before.slice(-500));
    expect(answer.previous).toBe(before.at(-501)!.start);

    const all = await chartBars.bars(BTC, resolution('1D'), { from: 0, to: NOW, countback: 100 });
    expect(all.bars).toEqual(tradeCandles(trades, '1d'));
    expect(all.previous).toBeUndefined();
  });

  it('gives no bar and the previous one for a quiet range', async () => {
    const quiet = truth.findIndex(
      (bar, index) => index > 0 && bar.start - truth[index - 1].start > 10 * MINUTE,
    );
    const from = truth[quiet - 1].start + MINUTE;
    expect(await chartBars.bars(BTC, ONE_MINUTE, { from, to: truth[quiet].start })).toEqual({
      bars: [],
      previous: truth[quiet - 1].start,
    });
  });

  it.each([
    ['5', '5m'],
    ['60', '1h'],
    ['1D', '1d'],
    ['1W', '1w'],
    ['1M', '1M'],
  ] as const)('rolls %s up to what the trades make', async (name, interval) => {
    const answer = await chartBars.bars(BTC, resolution(name), {
      from: FIRST_HOUR - 40 * DAY,
      to: NOW + DAY,
    });
    expect(answer.bars).toEqual(tradeCandles(trades, interval));
  });

  it('rolls 240 up from the minutes, across the window edge', async () => {
    const answer = await chartBars.bars(BTC, resolution('240'), { from: EDGE - DAY, to: NOW });
    expect(answer.bars).toEqual(
      inRange(rollUpBars(truth, resolution('240')), EDGE - DAY, NOW).filter((bar) => bar.start >= EDGE - DAY),
    );
  });

  it('gives a 5-minute bar its minutes, and starts only at bar starts', async () => {
    const answer = await chartBars.bars(BTC, resolution('5'), {
      from: EDGE - 7 * MINUTE,
      to: EDGE + 13 * MINUTE,
    });
    expect(answer.bars).toEqual(
      inRange(rollUpBars(truth, resolution('5')), EDGE - 5 * MINUTE, EDGE + 15 * MINUTE),
    );
    const edgeBar = answer.bars.find((bar) => bar.start === EDGE)!;
    expect(edgeBar).toEqual(rollUpBars(inRange(truth, EDGE, EDGE + 5 * MINUTE), resolution('5'))[0]);
  });

  it('reads settled hours once, the hours at the window edge and the trades every time', async () => {
    const query = { from: FIRST_HOUR, to: NOW };
    const first = await chartBars.bars(BTC, ONE_MINUTE, query);
    const settledBefore = EDGE + MINUTE - HOUR;
    expect(archive.hoursReadBefore(settledBefore)).toBeGreaterThan(0);
    archive.reads.length = 0;
    expect(await chartBars.bars(BTC, ONE_MINUTE, query)).toEqual(first);
    expect(archive.hoursReadBefore(settledBefore - HOUR)).toBe(0);

    // A late trade re-seals the hour at the edge: served at once.
    const edgeHour = EDGE - (EDGE % HOUR);
    const block = archive.blocks.get(edgeHour)!;
    const late = { ...block.bars[0], high: '1000000' };
    await archive.writeHours(BTC.instrument, [{ ...block, bars: [late, ...block.bars.slice(1)] }]);
    // And one lands in the window.
    windowTrades = [...windowTrades, trade('5', NOW - 4_000, '0.5')].sort((a, b) => a.time - b.time);
    const again = await chartBars.bars(BTC, ONE_MINUTE, query);
    expect(again.bars.find((bar) => bar.start === late.start)).toEqual(late);
    expect(again.bars.at(-1)).toMatchObject({ start: NOW - MINUTE, low: '0.5', close: '0.5' });
  });

  it('serves a rewritten settled hour once the cache lets it go, and at once when the coverage moved', async () => {
    const hour = FIRST_HOUR + 2 * DAY;
    const query = { from: hour, to: hour + HOUR };
    const original = (await chartBars.bars(BTC, ONE_MINUTE, query)).bars;
    const block = archive.blocks.get(hour)!;
    const rewritten = block.bars.map((bar) => ({ ...bar, volume: '7' }));
    await archive.writeHours(BTC.instrument, [{ ...block, bars: rewritten }]);
    expect((await chartBars.bars(BTC, ONE_MINUTE, query)).bars).toEqual(original);
    clock += 5 * MINUTE;
    expect((await chartBars.bars(BTC, ONE_MINUTE, query)).bars).toEqual(
      inRange(rewritten, hour, hour + HOUR),
    );

    // An older hour backfilled: the coverage moved, nothing cached is served.
    const daily = (await chartBars.bars(BTC, ONE_DAY, { from: 0, to: NOW, countback: 100 })).bars;
    const older = {
      hourStart: FIRST_HOUR - DAY,
      source: 'exchange' as const,
      bars: [{ ...truth[0], start: FIRST_HOUR - DAY, end: FIRST_HOUR - DAY + MINUTE }],
    };
    await archive.writeHours(BTC.instrument, [older]);
    archive.state = { ...archive.state, coveredFrom: FIRST_HOUR - DAY };
    const backfilled = (await chartBars.bars(BTC, ONE_DAY, { from: 0, to: NOW, countback: 100 })).bars;
    expect(backfilled).toHaveLength(daily.length + 1);
    expect(backfilled[0].start).toBe(FIRST_HOUR - DAY - ((FIRST_HOUR - DAY) % DAY));
  });

  it('answers 503 when the archive cannot be read, as when the store cannot', async () => {
    jest.spyOn(archive, 'readHours').mockRejectedValue(new Error('connection lost'));
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    await expect(chartBars.bars(BTC, ONE_DAY, { from: FIRST_HOUR, to: NOW })).rejects.toMatchObject({
      status: 503,
      code: 'store_unavailable',
    });
    // The window alone needs no archive.
    const window = await chartBars.bars(BTC, ONE_MINUTE, { from: NOW - HOUR, to: NOW, countback: 10 });
    expect(window.bars).toEqual(truth.slice(-10));
  });
});
