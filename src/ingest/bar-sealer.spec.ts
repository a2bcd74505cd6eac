import { Trade } from '../market/trade';
import { tradeCandles } from '../market/trade-candles';
import { BackfillState, HourBlock } from '../store/bar-archive';
import { MemoryBarArchive } from '../store/memory-bar-archive';
import { TradeFeedState } from '../store/state-store';
import { BarSealer, SealablePipeline } from './bar-sealer';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** 10:00 UTC of a day. */
const T = Date.UTC(2026, 10, 30, 10);
const SETTLE = 5_000;

let nextId = 1;
function trade(time: number, price = '10', amount = '1'): Trade {
  return { id: String(nextId++), instrument: 'btc_usdt', price, amount, side: 'buy', time };
}

/** A pipeline's window as the sealer sees it: trades oldest first, and the hours the feed added to. */
class FakePipeline implements SealablePipeline {
  tradeFeed: TradeFeedState = 'live';
  tradesComplete = true;
  private readonly trades: Trade[] = [];
  private readonly hours = new Set<number>();

  constructor(readonly instrument = 'btc_usdt') {}

  /** Trades the feed delivered. */
  add(...trades: Trade[]): void {
    this.seed(...trades);
    for (const added of trades) this.hours.add(added.time - (added.time % HOUR));
  }

  /** Trades the window was seeded with from the store. */
  seed(...trades: Trade[]): void {
    this.trades.push(...trades);
    this.trades.sort((a, b) => a.time - b.time || Number(a.id) - Number(b.id));
  }

  takeTradeHours(): number[] {
    const hours = [...this.hours];
    this.hours.clear();
    return hours;
  }

  tradesBetween(from: number, to: number): Trade[] {
    return this.trades.filter((held) => held.time >= from && held.time < to);
  }
}

/** The memory archive, its calls counted, its writes failing while `failing`. */
class CountingArchive extends MemoryBarArchive {
  reads = 0;
  writes: HourBlock[][] = [];
  backfillWrites: BackfillState[] = [];
  failing = false;

  /** What the archive holds of `instrument`, read without counting. */
  stored(instrument = 'btc_usdt'): Promise<HourBlock[]> {
    return super.readHours(instrument, 0, Infinity);
  }

  override async readHours(instrument: string, from: number, to: number): Promise<HourBlock[]> {
    this.reads++;
    if (this.failing) throw new Error('store down');
    return super.readHours(instrument, from, to);
  }

  override async writeHours(instrument: string, blocks: readonly HourBlock[]): Promise<void> {
    if (this.failing) throw new Error('store down');
    this.writes.push([...blocks]);
    return super.writeHours(instrument, blocks);
  }

  override async writeBackfill(instrument: string, state: BackfillState): Promise<void> {
    if (this.failing) throw new Error('store down');
    this.backfillWrites.push(state);
    return super.writeBackfill(instrument, state);
  }
}

/** The block the sealer should write of `trades` (all of one hour). */
function sealedBlock(hourStart: number, trades: Trade[]): HourBlock {
  const bars = tradeCandles(trades, '1m').map(({ quoteVolume: _, ...bar }) => bar);
  return { hourStart, source: 'trades', bars };
}

describe('BarSealer', () => {
  let now: number;
  let archive: CountingArchive;
  let pipelines: FakePipeline[];
  let sealer: BarSealer;
  const warnings: string[] = [];

  beforeEach(() => {
    now = T;
    archive = new CountingArchive({ retentionMs: 365 * DAY, now: () => now });
    pipelines = [new FakePipeline()];
    warnings.length = 0;
    sealer = new BarSealer({
      archive,
      pipelines: () => pipelines,
      now: () => now,
      logger: { warn: (message: string) => warnings.push(message) },
    });
  });

  const stored = () => archive.stored();

  it('seals an hour once it has ended and settled, not before', async () => {
    const nine = [trade(T - HOUR + 60_000, '10'), trade(T - HOUR + 61_000, '12', '0.5'), trade(T - 1, '11')];
    const ten = [trade(T + 1_000, '13')];
    const pipeline = pipelines[0];
    // A pass before the hour ended, then one inside the settle time.
    now = T - HOUR + 61_000;
    pipeline.add(nine[0], nine[1]);
    await sealer.tick();
    now = T + SETTLE - 1;
    pipeline.add(nine[2], ten[0]);
    await sealer.tick();
    expect(await stored()).toEqual([]);

    now = T + SETTLE;
    await sealer.tick();
    expect(await stored()).toEqual([sealedBlock(T - HOUR, nine)]);
    expect((await stored())[0].bars).toHaveLength(2);
    expect(await archive.readBackfill('btc_usdt')).toEqual({ sealedThrough: T });

    // Nothing new: nothing written, and the ten o'clock hour waits for its end.
    now = T + HOUR + SETTLE - 1;
    await sealer.tick();
    expect(archive.writes).toHaveLength(1);
    now = T + HOUR + SETTLE;
    await sealer.tick();
    expect(await stored()).toEqual([sealedBlock(T - HOUR, nine), sealedBlock(T, ten)]);
    expect(await archive.readBackfill('btc_usdt')).toEqual({ sealedThrough: T + HOUR });
  });

  it('moves sealedThrough on through hours without trades, writing no block of them', async () => {
    now = T + SETTLE;
    await sealer.tick();
    now = T + 3 * HOUR + SETTLE;
    await sealer.tick();
    expect(archive.writes).toEqual([]);
    expect(archive.backfillWrites).toEqual([{ sealedThrough: T }, { sealedThrough: T + 3 * HOUR }]);
    await sealer.tick();
    expect(archive.backfillWrites).toHaveLength(2);
  });

  it('seals an hour again when a late trade lands in it', async () => {
    const early = trade(T - HOUR + 5_000, '10');
    pipelines[0].add(early);
    now = T + SETTLE;
    await sealer.tick();
    expect(await stored()).toEqual([sealedBlock(T - HOUR, [early])]);

    // A snapshot after a reconnect brings a trade of the sealed hour, and one of the open hour.
    now = T + 20 * 60_000;
    const late = trade(T - HOUR + 30 * 60_000, '9');
    pipelines[0].add(late, trade(T + 10 * 60_000));
    await sealer.tick();
    expect(await stored()).toEqual([sealedBlock(T - HOUR, [early, late])]);
    expect(archive.writes.map((blocks) => blocks.map((block) => block.hourStart))).toEqual([
      [T - HOUR],
      [T - HOUR],
    ]);
  });

  it('seals in one write every due hour of a market', async () => {
    const trades = [trade(T - 3 * HOUR), trade(T - 2 * HOUR + 1), trade(T - HOUR + 2)];
    pipelines[0].add(...trades);
    now = T + SETTLE;
    await sealer.tick();
    expect(archive.writes).toEqual([trades.map((one) => sealedBlock(one.time - (one.time % HOUR), [one]))]);
  });

  it('waits for a complete window, keeping the hours marked meanwhile', async () => {
    const one = trade(T - HOUR);
    pipelines[0].tradesComplete = false;
    pipelines[0].add(one);
    now = T + SETTLE;
    await sealer.tick();
    expect(archive.reads + archive.writes.length + archive.backfillWrites.length).toBe(0);
    pipelines[0].tradesComplete = true;
    await sealer.tick();
    expect(await stored()).toEqual([sealedBlock(T - HOUR, [one])]);
  });

  it('on a takeover, seals with one read every closed hour of the window without a trade-built block', async () => {
    const exchangeBuilt: HourBlock = {
      hourStart: T - 3 * HOUR,
      source: 'exchange',
      bars: [
        {
          start: T - 3 * HOUR,
          end: T - 3 * HOUR + 60_000,
          open: '1',
          high: '1',
          low: '1',
          close: '1',
          volume: '7',
        },
      ],
    };
    const seeded = [
      trade(T - DAY + HOUR + 10),
      trade(T - 3 * HOUR + 10),
      trade(T - 2 * HOUR + 10),
      trade(T - HOUR + 10),
      trade(T + 10),
    ];
    const previousOwners = sealedBlock(T - 2 * HOUR, [seeded[2]]);
    await archive.writeHours('btc_usdt', [exchangeBuilt, previousOwners]);
    now = T + 60_000;
    pipelines[0].seed(...seeded);

    await sealer.tick();
    expect(archive.reads).toBe(1);
    expect(await stored()).toEqual([
      sealedBlock(T - DAY + HOUR, [seeded[0]]),
      sealedBlock(T - 3 * HOUR, [seeded[1]]),
      previousOwners,
      sealedBlock(T - HOUR, [seeded[3]]),
    ]);
    expect(archive.writes).toHaveLength(2);

    // Later passes do not read again; a pipeline opened anew (the market taken over again) does.
    await sealer.tick();
    pipelines = [new FakePipeline()];
    await sealer.tick();
    expect(archive.reads).toBe(2);
  });

  it('seals no hour that the window holds only in part', async () => {
    now = T + 30 * 60_000;
    // The window reaches back to 10:30 of the day before: its 10:00 hour lost trades.
    pipelines[0].add(trade(T - DAY + 40 * 60_000), trade(T - DAY + HOUR + 1));
    await sealer.tick();
    expect((await stored()).map((block) => block.hourStart)).toEqual([T - DAY + HOUR]);
  });

  it('keeps the hours of a failed write for the next pass', async () => {
    const one = trade(T - HOUR + 1);
    pipelines[0].add(one);
    now = T + SETTLE;
    archive.failing = true;
    await sealer.tick();
    await sealer.tick();
    expect(warnings).toEqual([
      'bars of 1 market(s) not sealed yet, retrying (btc_usdt: Error: store down)',
      'bars of 1 market(s) not sealed yet, retrying (btc_usdt: Error: store down)',
    ]);
    archive.failing = false;
    await sealer.tick();
    expect(await stored()).toEqual([sealedBlock(T - HOUR, [one])]);
    expect(await archive.readBackfill('btc_usdt')).toEqual({ sealedThrough: T });
  });

  it('reseals every closed hour when the takeover read fails', async () => {
    const one = trade(T - 2 * HOUR + 1);
    pipelines[0].seed(one);
    now = T + SETTLE;
    archive.failing = true;
    await sealer.tick();
    archive.failing = false;
    await sealer.tick();
    expect(archive.reads).toBe(1);
    expect(await stored()).toEqual([sealedBlock(T - 2 * HOUR, [one])]);
  });

  it('seals each market apart and leaves markets without a trade feed alone', async () => {
    const level1 = new FakePipeline('eth_usdt');
    level1.tradeFeed = 'unavailable';
    const other = new FakePipeline('xrp_usdt');
    pipelines.push(level1, other);
    const mine = trade(T - HOUR);
    const theirs = { ...trade(T - HOUR + 7), instrument: 'xrp_usdt' };
    pipelines[0].add(mine);
    other.add(theirs);
    now = T + SETTLE;
    await sealer.tick();
    expect(await stored()).toEqual([sealedBlock(T - HOUR, [mine])]);
    expect(await archive.stored('xrp_usdt')).toEqual([sealedBlock(T - HOUR, [theirs])]);
    expect(await archive.readBackfill('eth_usdt')).toEqual({});
  });

  it('runs one pass at a time', async () => {
    pipelines[0].add(trade(T - HOUR));
    now = T + SETTLE;
    const first = sealer.tick();
    expect(sealer.tick()).toBe(first);
    await first;
    expect(archive.writes).toHaveLength(1);
  });
});
