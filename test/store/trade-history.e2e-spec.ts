import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import Redis from 'ioredis';
import { Trade } from '../../src/market/trade';
import { MemoryStateStore } from '../../src/store/memory-state-store';
import { RedisStateStore } from '../../src/store/redis-state-store';
import { compareTradesOldestFirst } from '../../src/store/store-order';
import { head, trade } from '../../src/store/testing/state-store-contract';
import { MINUTE_MS } from '../../src/store/trade-history';
import { fuzzCases } from '../fuzz/support/fuzz-run';
import { startRedisServer, TestRedisServer } from '../support/redis-server';

/**
 * The stored trades in Redis (minutes in a hash, the open minute apart) against the in-memory
 * store, on drawn runs of writes: trades repeated within a write and across writes, late trades,
 * several of one time, minute boundaries, cut-offs in a minute's middle, scheduled trims, and
 * replaces (as an ingest replica's first write is). After every step both stores hold the same
 * trades and the same tails.
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

type Step =
  { kind: 'write'; replace: boolean; ids: number[]; before?: number } | { kind: 'trim'; before: number };

const cutOff = fc.integer({ min: -1, max: POOL / 3 }).map((slot) => T0 + slot * 20_000 + (slot % 2) * 7_000);

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('write' as const),
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
let store: RedisStateStore;

beforeAll(async () => {
  server = await startRedisServer();
  store = RedisStateStore.fromUrl(server.url, {
    prefix: `history-${randomUUID().slice(0, 8)}`,
    instrumentNotices: false,
  });
  await store.ready();
});

afterAll(async () => {
  await store.close();
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

describe('the trade history in Redis', () => {
  it('holds what the in-memory store holds through drawn writes, trims and replaces', async () => {
    const runs = fuzzCases(fc.array(step, { minLength: 1, maxLength: 12 }), CASES);
    for (const [index, steps] of runs.entries()) {
      const instrument = `case${index}_usdt`;
      const memory = new MemoryStateStore();
      // The first write replaces, as an ingest replica's first write does.
      let written = false;
      for (const [at, next] of steps.entries()) {
        const where = `case ${index}, step ${at} of ${JSON.stringify(steps)}`;
        if (next.kind === 'trim') {
          expectSame(
            where,
            await store.trimTrades([instrument], next.before),
            await memory.trimTrades([instrument], next.before),
          );
        } else {
          const write = {
            instrument,
            replace: next.replace || !written,
            head: head(instrument, at + 1, { tradesRevision: at + 1 }),
            tradesAdded: next.ids.map((id) => pooled(id, instrument)),
            ...(next.before === undefined ? {} : { tradesBefore: next.before }),
          };
          written = true;
          await store.write([write]);
          await memory.write([write]);
        }
        const expected = await memory.readTrades(instrument);
        expectSame(where, await store.readTrades(instrument), expected);
        for (const from of [T0 - MINUTE_MS, expected.at(-1)?.time ?? T0, T0 + 5 * MINUTE_MS + 1])
          expectSame(
            `${where}, from ${from}`,
            await store.readTradesFrom(instrument, from),
            await memory.readTradesFrom(instrument, from),
          );
      }
    }
  });

  it('keeps trades of one time in numeric id order, reads the tail of a sparse day and leaves no key when all go', async () => {
    const instrument = 'sparse_usdt';
    const keys = store.keys.instrument(instrument);
    const sparse = [
      trade('10', T0, { instrument }),
      trade('9', T0, { instrument }),
      trade('100', T0 + 3 * 3_600_000, { instrument }),
      trade('101', T0 + 23 * 3_600_000, { instrument }),
    ];
    await store.write([{ instrument, replace: true, head: head(instrument, 1), tradesAdded: sparse }]);
    expect(await store.readTrades(instrument)).toEqual([...sparse].sort(compareTradesOldestFirst));
    // The minutes from the cut-off on span more than one HMGET of the tail script.
    expect(await store.readTradesFrom(instrument, T0 + 1)).toEqual({
      trades: sparse.slice(2),
      count: 4,
      oldest: sparse[1],
    });
    await store.write([
      { instrument, replace: false, head: head(instrument, 2), tradesBefore: T0 + 23 * 3_600_000 },
    ]);
    expect(await store.readTrades(instrument)).toEqual([]);
    const admin = new Redis(server.url);
    try {
      expect(await admin.exists(keys.tradeHistory, keys.tradeOpenMinute)).toBe(0);
    } finally {
      admin.disconnect();
    }
  });
});
