import { Logger } from '@nestjs/common';
import { Candle } from '../market/candle-stats';
import { DAY_MS } from '../market/trade-window';
import { BackfillState, BarArchive, HourBlock } from '../store/bar-archive';
import { HistoryRequest } from '../upstream/rest/history-request';
import { ChartBackfill } from './chart-backfill';
import { HOUR_MS } from './chart-backfill-plan';
import { SerialWork } from './serial-work';

const BTC = 'btc_usdt';
const MINUTE = 60_000;
const at = (day: number, hour: number, minute = 0) => Date.UTC(2026, 0, day, hour, minute);

function bar(start: number, price = '10', volume = '1'): Candle {
  return { start, end: start + MINUTE, open: price, high: price, low: price, close: price, volume };
}

/** The archive's rule in memory: a trade-built block is never replaced by an exchange one. */
class FakeArchive implements BarArchive {
  readonly blocks = new Map<string, Map<number, HourBlock>>();
  readonly states = new Map<string, BackfillState>();
  readonly written: HourBlock[] = [];
  failReads = false;

  async readHours(instrument: string, from: number, to: number): Promise<HourBlock[]> {
    if (this.failReads) throw new Error('store down');
    return [...(this.blocks.get(instrument)?.values() ?? [])]
      .filter((block) => block.hourStart >= from && block.hourStart < to)
      .sort((a, b) => a.hourStart - b.hourStart);
  }

  async writeHours(instrument: string, blocks: readonly HourBlock[]): Promise<void> {
    let hours = this.blocks.get(instrument);
    if (!hours) this.blocks.set(instrument, (hours = new Map()));
    for (const block of blocks) {
      this.written.push(block);
      if (hours.get(block.hourStart)?.source === 'trades' && block.source === 'exchange') continue;
      hours.set(block.hourStart, block);
    }
  }

  async readBackfill(instrument: string): Promise<BackfillState> {
    return this.states.get(instrument) ?? {};
  }

  async writeBackfill(instrument: string, state: BackfillState): Promise<void> {
    this.states.set(instrument, { ...this.states.get(instrument), ...state });
  }
}

/** The exchange's REST candles, built from minute bars as the exchange builds them from its trades. */
class FakeExchange {
  readonly calls: { interval: string; start: number; end: number }[] = [];
  failures = 0;

  constructor(public minutes: Candle[]) {}

  readonly history = jest.fn(async (_instrument: string, request: HistoryRequest): Promise<Candle[]> => {
    this.calls.push({ interval: request.interval, start: request.start, end: request.end });
    if (this.failures > 0) {
      this.failures--;
      throw new Error('503 Service Unavailable');
    }
    const inRange = this.minutes.filter((m) => m.start >= request.start && m.start < request.end);
    if (request.interval === '1m') return inRange.slice(-(request.count ?? 1000));
    const days = new Map<number, Candle>();
    for (const m of inRange) {
      const day = m.start - (m.start % DAY_MS);
      days.set(day, { ...bar(day), end: day + DAY_MS });
    }
    return [...days.values()];
  });
}

interface Rig {
  archive: FakeArchive;
  exchange: FakeExchange;
  backfill: ChartBackfill;
  clock: { now: number };
  mismatches: [string, number][];
  waiting: { count: number };
  work: SerialWork;
}

function rig(options: { archive?: FakeArchive; exchange?: FakeExchange; now: number; days?: number }): Rig {
  const archive = options.archive ?? new FakeArchive();
  const exchange = options.exchange ?? new FakeExchange([]);
  const clock = { now: options.now };
  const mismatches: [string, number][] = [];
  const waiting = { count: 0 };
  const work = new SerialWork();
  const backfill = new ChartBackfill(
    {
      instruments: () => [BTC],
      rest: { history: exchange.history },
      archive,
      budget: {
        usage: async () => [
          { family: 'marketdata', limit: 2, counting: 0, waiting: waiting.count, scope: 'process' },
        ],
      },
      ownerWork: work,
      signal: new AbortController().signal,
      countMismatches: (instrument, bars) => mismatches.push([instrument, bars]),
    },
    { historyDays: options.days ?? 3, retryMs: 60_000, now: () => clock.now },
  );
  return { archive, exchange, backfill, clock, mismatches, waiting, work };
}

/** Steps until one makes no request; the number of requests made. */
async function runSteps(r: Rig, limit = 50): Promise<number> {
  for (let steps = 0; steps < limit; steps++) {
    const before = r.exchange.calls.length;
    await r.backfill.step();
    if (r.exchange.calls.length === before) return steps;
  }
  throw new Error('the backfill did not settle');
}

// Now: 10 January 12:30. The window starts in 9 January's 12:00 hour, the sealer's hours at 13:00.
// Horizon (3 days after the day): 7 January 00:00.
const NOW = at(10, 12, 30);
const TAPE = [
  bar(at(6, 23, 59)), // before the horizon
  bar(at(7, 12, 5), '11'),
  bar(at(7, 23, 59), '12', '2.5'),
  bar(at(9, 3, 0), '13'),
  bar(at(9, 11, 59), '14'),
  bar(at(9, 12, 0), '15'), // in the hour holding the window's start: the backfill's last hour
  bar(at(9, 13, 0), '15.5'), // in the sealer's first hour
  bar(at(10, 10, 0), '16'),
];

describe('ChartBackfill', () => {
  beforeEach(() => {
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
  });

  afterEach(() => jest.restoreAllMocks());

  it('asks for the traded days once, then 1-minute candles of those days only, newest first', async () => {
    const r = rig({ exchange: new FakeExchange(TAPE), now: NOW });

    expect(await runSteps(r)).toBe(4);

    expect(r.exchange.calls).toEqual([
      { interval: '1d', start: at(7, 0), end: NOW },
      { interval: '1m', start: at(9, 0), end: at(9, 13) },
      { interval: '1m', start: at(7, 8), end: at(8, 0) },
      { interval: '1m', start: at(7, 0), end: at(7, 8) },
    ]);
    expect(await r.archive.readHours(BTC, 0, Number.MAX_SAFE_INTEGER)).toEqual([
      { hourStart: at(7, 12), source: 'exchange', bars: [bar(at(7, 12, 5), '11')] },
      { hourStart: at(7, 23), source: 'exchange', bars: [bar(at(7, 23, 59), '12', '2.5')] },
      { hourStart: at(9, 3), source: 'exchange', bars: [bar(at(9, 3), '13')] },
      { hourStart: at(9, 11), source: 'exchange', bars: [bar(at(9, 11, 59), '14')] },
      { hourStart: at(9, 12), source: 'exchange', bars: [bar(at(9, 12), '15')] },
    ]);
    expect(r.archive.states.get(BTC)).toEqual({ coveredFrom: at(7, 0), coveredTo: at(9, 13) });
  });

  it('writes nothing in the hours the sealer builds and never tries over a trade-built hour', async () => {
    const archive = new FakeArchive();
    const tradeBlock: HourBlock = {
      hourStart: at(9, 11),
      source: 'trades',
      bars: [bar(at(9, 11, 59), '14')],
    };
    await archive.writeHours(BTC, [tradeBlock]);
    archive.written.length = 0;
    const r = rig({ archive, exchange: new FakeExchange(TAPE), now: NOW });

    await runSteps(r);

    const edge = at(9, 13);
    expect(archive.written.every((block) => block.hourStart + HOUR_MS <= edge)).toBe(true);
    expect(archive.written.map((block) => block.hourStart)).not.toContain(at(9, 11));
    expect((await archive.readHours(BTC, at(9, 11), at(9, 12)))[0]).toBe(tradeBlock);
  });

  it('goes on where it stopped after a restart', async () => {
    const exchange = new FakeExchange(TAPE);
    const first = rig({ exchange, now: NOW });
    await first.backfill.step();
    await first.backfill.step();
    expect(first.archive.states.get(BTC)).toEqual({ coveredFrom: at(9, 0), coveredTo: at(9, 13) });

    const second = rig({ archive: first.archive, exchange, now: NOW });
    await runSteps(second);

    expect(exchange.calls.map((call) => [call.interval, call.start])).toEqual([
      ['1d', at(7, 0)],
      ['1m', at(9, 0)],
      ['1d', at(7, 0)],
      ['1m', at(7, 8)],
      ['1m', at(7, 0)],
    ]);
    expect(second.archive.states.get(BTC)).toEqual({ coveredFrom: at(7, 0), coveredTo: at(9, 13) });
  });

  it('asks a failed request again after the retry time, without losing progress', async () => {
    const exchange = new FakeExchange(TAPE);
    const r = rig({ exchange, now: NOW });
    await r.backfill.step(); // traded days
    exchange.failures = 1;
    await r.backfill.step();
    expect(r.archive.states.get(BTC)).toEqual({ coveredFrom: at(9, 13), coveredTo: at(9, 13) });

    await r.backfill.step();
    r.clock.now = NOW + 59_000;
    await r.backfill.step();
    expect(exchange.calls).toHaveLength(2);

    r.clock.now = NOW + 60_000;
    await runSteps(r);
    expect(exchange.calls.slice(1).map((call) => [call.interval, call.start, call.end])).toEqual([
      ['1m', at(9, 0), at(9, 13)],
      ['1m', at(9, 0), at(9, 13)],
      ['1m', at(7, 8), at(8, 0)],
      ['1m', at(7, 0), at(7, 8)],
    ]);
    expect(r.archive.states.get(BTC)).toEqual({ coveredFrom: at(7, 0), coveredTo: at(9, 13) });
  });

  it('fills the hours a long downtime left without trade-built blocks, oldest first', async () => {
    const archive = new FakeArchive();
    await archive.writeBackfill(BTC, {
      coveredFrom: at(6, 0),
      coveredTo: at(9, 12),
      sealedThrough: at(10, 12),
    });
    const later = at(13, 12, 30); // three days later: the sealer's hours start at 12 January 13:00
    const tape = [...TAPE, bar(at(10, 20, 30), '20'), bar(at(11, 5, 0), '21'), bar(at(12, 11, 0), '22')];
    const tradeBlock: HourBlock = { hourStart: at(10, 10), source: 'trades', bars: [bar(at(10, 10), '16')] };
    await archive.writeHours(BTC, [tradeBlock]);
    archive.written.length = 0;
    const r = rig({ archive, exchange: new FakeExchange(tape), now: later, days: 7 });

    await runSteps(r);

    expect(r.exchange.calls.map((call) => [call.interval, call.start, call.end])).toEqual([
      ['1d', at(6, 0), later],
      ['1m', at(9, 12), at(10, 4)],
      ['1m', at(10, 4), at(10, 20)],
      ['1m', at(10, 20), at(11, 12)],
      ['1m', at(11, 12), at(12, 4)],
    ]);
    expect(archive.states.get(BTC)).toMatchObject({ coveredFrom: at(6, 0), coveredTo: at(12, 4) });
    expect(archive.written.map((block) => block.hourStart)).not.toContain(at(10, 10));
    expect((await archive.readHours(BTC, at(10, 20), at(11, 12))).map((block) => block.hourStart)).toEqual([
      at(10, 20),
      at(11, 5),
    ]);
  });

  it('counts the bars of trade-built hours that differ from the exchange candles', async () => {
    const archive = new FakeArchive();
    const edge = at(9, 13);
    await archive.writeBackfill(BTC, { coveredFrom: at(7, 0), coveredTo: edge, sealedThrough: at(10, 12) });
    await archive.writeHours(BTC, [
      { hourStart: at(9, 13), source: 'trades', bars: [bar(at(9, 13, 0), '15.5')] },
      {
        hourStart: at(9, 20),
        source: 'trades',
        bars: [bar(at(9, 20, 1), '30'), bar(at(9, 20, 2), '31', '2')],
      },
      { hourStart: at(10, 2), source: 'trades', bars: [bar(at(10, 2, 7), '40')] },
    ]);
    const exchange = new FakeExchange([
      bar(at(9, 13, 0), '15.5'),
      bar(at(9, 20, 1), '30'),
      bar(at(9, 20, 2), '31', '2.5'), // volume differs
      bar(at(10, 2, 8), '40'), // another minute: both count
    ]);
    const r = rig({ archive, exchange, now: NOW });

    await r.backfill.step();

    expect(exchange.calls).toEqual([{ interval: '1m', start: edge, end: edge + 16 * HOUR_MS }]);
    expect(r.mismatches).toEqual([[BTC, 3]]);
    expect(archive.states.get(BTC)).toMatchObject({
      mismatchFoundAt: NOW,
      mismatchFrom: edge,
      mismatchTo: edge + 16 * HOUR_MS,
      mismatchBars: 3,
    });

    // The next check waits for 16 more sealed hours.
    await runSteps(r);
    expect(exchange.calls.filter((call) => call.start === edge)).toHaveLength(1);
  });

  it('counts zero for matching hours and keeps no mismatch', async () => {
    const archive = new FakeArchive();
    await archive.writeBackfill(BTC, {
      coveredFrom: at(7, 0),
      coveredTo: at(9, 13),
      sealedThrough: at(10, 12),
    });
    await archive.writeHours(BTC, [
      { hourStart: at(9, 13), source: 'trades', bars: [bar(at(9, 13, 0), '15.5')] },
    ]);
    const r = rig({ archive, exchange: new FakeExchange(TAPE), now: NOW });

    await r.backfill.step();

    expect(r.mismatches).toEqual([[BTC, 0]]);
    expect(archive.states.get(BTC)?.mismatchFoundAt).toBeUndefined();
  });

  it('leaves the budget to others waiting for it, and queues no step behind other REST work', async () => {
    const r = rig({ exchange: new FakeExchange(TAPE), now: NOW });
    r.waiting.count = 1;
    await r.backfill.step();
    expect(r.exchange.calls).toHaveLength(0);

    r.waiting.count = 0;
    let release!: () => void;
    r.work.add('verify:btc_usdt', () => new Promise<void>((resolve) => (release = resolve)));
    r.work.add('candles:eth_usdt', async () => undefined);
    r.backfill.tick();
    release();
    await r.work.stop();
    expect(r.exchange.calls).toHaveLength(0);
  });

  it('queues one step at a time with the owner work', async () => {
    const r = rig({ exchange: new FakeExchange(TAPE), now: NOW });
    r.backfill.tick();
    r.backfill.tick();
    await r.work.stop();

    expect(r.exchange.calls).toHaveLength(1);
  });
});
