import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { TRADE_LAYOUTS } from '../../src/config/app-config';
import { Trade } from '../../src/market/trade';
import { MemoryStateStore } from '../../src/store/memory-state-store';
import { RedisStateStore } from '../../src/store/redis-state-store';
import { head, trade } from '../../src/store/testing/state-store-contract';
import { TradeLayout } from '../../src/store/instrument-write-script';
import { MINUTE_MS } from '../../src/store/trade-minutes';
import { fuzzCases } from '../fuzz/support/fuzz-run';
import { startRedisServer, TestRedisServer } from '../support/redis-server';

/**
 * Every trade layout against the in-memory store, on drawn runs of writes: trades repeated within a
 * write and across writes, late trades, several of one time, minute boundaries, cut-offs in a
 * minute's middle, scheduled trims, and writers of other layouts taking the instrument (with a
 * replace, as an ingest replica's first write is, or without one when moving to a later layout).
 * After every step both stores hold the same trades and the same tails.
 */
const CASES = 300;
const T0 = 1_764_000_000_000;
const POOL = 90;

/** Trade `id`'s fields: three trades a time, a time every 20 s, so a minute holds nine. */
function pooled(id: number, instrument: string): Trade {
  return trade(String(id), T0 + Math.floor(id / 3) * 20_000, {
    instrument,
    side: id % 2 ? 'sell' : 'buy',
    amount: `0.${id}`,
  });
}

/** The layouts in the order they came (TRADE_LAYOUTS lists the newest first). */
const layoutOrder = (layout: TradeLayout): number => [...TRADE_LAYOUTS].reverse().indexOf(layout);

type Step =
  | { kind: 'write'; layout: TradeLayout; replace: boolean; ids: number[]; before?: number }
  | { kind: 'trim'; before: number };

const cutOff = fc.integer({ min: -1, max: POOL / 3 }).map((slot) => T0 + slot * 20_000 + (slot % 2) * 7_000);

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('write' as const),
      layout: fc.constantFrom(...TRADE_LAYOUTS),
      replace: fc.nat(5).map((draw) => draw === 0),
      // Mostly newer ids from a random start, with repeats and stragglers.
      ids: fc
        .tuple(fc.nat(POOL - 1), fc.array(fc.integer({ min: -6, max: 4 }), { maxLength: 14 }))
        .map(([start, moves]) =>
          moves.map((move, index) => Math.min(POOL - 1, Math.max(0, start + index + move))),
        ),
      before: fc.option(cutOff, { nil: undefined, freq: 4 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('trim' as const), before: cutOff }) },
);

let server: TestRedisServer;
const stores = new Map<TradeLayout, RedisStateStore>();

beforeAll(async () => {
  server = await startRedisServer();
  const prefix = `layouts-${randomUUID().slice(0, 8)}`;
  for (const layout of TRADE_LAYOUTS) {
    const store = RedisStateStore.fromUrl(server.url, {
      prefix,
      tradeLayout: layout,
      instrumentNotices: false,
    });
    await store.ready();
    stores.set(layout, store);
  }
});

afterAll(async () => {
  await Promise.all([...stores.values()].map((store) => store.close()));
  await server.stop();
});

/** `expect(actual).toEqual(expected)`, its failure naming the case and step. */
function expectSame(where: string, actual: unknown, expected: unknown): void {
  try {
    expect(actual).toEqual(expected);
  } catch (error) {
    throw new Error(`${where}\n${(error as Error).message}`);
  }
}

describe('every trade layout', () => {
  it('holds what the in-memory store holds through drawn writes, trims and handovers', async () => {
    const runs = fuzzCases(fc.array(step, { minLength: 1, maxLength: 12 }), CASES);
    const reader = stores.get('open-minute')!;
    for (const [index, steps] of runs.entries()) {
      const instrument = `case${index}_usdt`;
      const memory = new MemoryStateStore();
      let previous: TradeLayout | undefined;
      for (const [at, next] of steps.entries()) {
        const where = `case ${index}, step ${at} of ${JSON.stringify(steps)}`;
        if (next.kind === 'trim') {
          expectSame(
            where,
            await reader.trimTrades([instrument], next.before),
            await memory.trimTrades([instrument], next.before),
          );
        } else {
          // A writer of an earlier layout takes an instrument over with a replace only.
          const replace =
            next.replace || previous === undefined || layoutOrder(next.layout) < layoutOrder(previous);
          previous = next.layout;
          const write = {
            instrument,
            replace,
            head: head(instrument, at + 1, { tradesRevision: at + 1 }),
            tradesAdded: next.ids.map((id) => pooled(id, instrument)),
            ...(next.before === undefined ? {} : { tradesBefore: next.before }),
          };
          await stores.get(next.layout)!.write([write]);
          await memory.write([write]);
        }
        const expected = await memory.readTrades(instrument);
        expectSame(where, await reader.readTrades(instrument), expected);
        for (const from of [T0 - MINUTE_MS, expected.at(-1)?.time ?? T0, T0 + 5 * MINUTE_MS + 1])
          expectSame(
            `${where}, from ${from}`,
            await reader.readTradesFrom(instrument, from),
            await memory.readTradesFrom(instrument, from),
          );
      }
    }
  });
});
