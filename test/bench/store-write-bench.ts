import Redis from 'ioredis';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { EMPTY_STATS } from '../../src/market/market-stats';
import { decodeInstrumentChange } from '../../src/store/instrument-change-message';
import { Trade } from '../../src/market/trade';
import {
  INSTRUMENT_WRITE_SCRIPT,
  instrumentWriteCalls,
  WriteCallOptions,
} from '../../src/store/instrument-write-script';
import { StoreKeys } from '../../src/store/keys';
import { InstrumentWrite, PriceLevel } from '../../src/store/state-store';
import { head } from '../../src/store/testing/state-store-contract';
import { MINUTE_MS, wholeMinutesBefore } from '../../src/store/trade-history';
import { startRedisServer } from '../support/redis-server';
import { redisCpuSeconds } from './bench-process';
import { describeMachine } from './machine';

/**
 * The ingest's side of a store flush: the client CPU one instrument's write costs, in the shape the
 * ingest writes under a burst (200 instruments per flush, each with a few changed levels per side,
 * a trade and its head), against a private redis-server. Three ways, taking turns in one process:
 *
 * - `one call per write, notices heard`: a script call per instrument, and the writer's connection
 *   subscribed to the change notices it publishes (every replica heard them all);
 * - `one call per write`: the same without the notices (how a Redis Cluster is written, one slot
 *   per call);
 * - `batched`: up to WRITES_PER_CALL instruments per call, no notices (how a standalone Redis is
 *   written, and what an ingest replica hears).
 *
 * CPU is the process's own (`process.cpuUsage`), user and system: what the writes cost the ingest
 * whatever else runs on the machine. Medians of the rounds; ratios against the first way.
 *
 * Then Redis' side of deep replaces, what a start or a takeover writes: Redis' CPU (`INFO cpu`) a
 * level for books of DEEP_LEVELS levels a side, written by the script and, as the peer, by a bare
 * DEL and HSET per side from the client.
 *
 * Then Redis' side of a busy market's trades once its window is full: Redis' CPU a write adding
 * one trade, TRADES_A_SECOND a second, to instruments holding TRADE_MINUTES minutes at that rate,
 * the window trimmed with each write to the trade or by whole minutes (as the ingest does); against
 * the trim to the trade.
 *
 *   node -r ./test/bench/swc-register.js test/bench/store-write-bench.ts [--instruments 200] [--rounds 5] [--flushes 50] [--full]
 */

interface Way {
  readonly name: string;
  readonly oneWritePerCall: boolean;
  readonly hearsNotices: boolean;
}

const WAYS: readonly Way[] = [
  { name: 'one call per write, notices heard', oneWritePerCall: true, hearsNotices: true },
  { name: 'one call per write', oneWritePerCall: true, hearsNotices: false },
  { name: 'batched', oneWritePerCall: false, hearsNotices: false },
];

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      instruments: { type: 'string', default: '200' },
      rounds: { type: 'string', default: '5' },
      flushes: { type: 'string', default: '50' },
      full: { type: 'boolean', default: false },
    },
  });
  const instruments = Number(values.instruments);
  const rounds = values.full ? 15 : Number(values.rounds);
  const flushes = Number(values.flushes);
  const loadAtStart = loadavg()[0];
  const redis = await startRedisServer({ args: [] });
  const keys = new StoreKeys();
  const client = new Redis(redis.url);
  const subscriber = new Redis(redis.url);
  let heard = 0;
  subscriber.on('message', (_channel: string, message: string) => {
    if (decodeInstrumentChange(message)) heard++;
  });
  try {
    let version = 0;
    const flush = async (way: Way): Promise<void> => {
      version++;
      await writeAll(client, keys, burstFlush(instruments, version), way);
    };
    const cpuPerWrite = await takingTurns(WAYS, rounds, async (way) => {
      if (way.hearsNotices) await subscriber.subscribe(keys.changes);
      heard = 0;
      const before = process.cpuUsage();
      for (let i = 0; i < flushes; i++) await flush(way);
      // The notices of the last flush are still arriving: they are part of its cost.
      if (way.hearsNotices) while (heard < flushes * instruments) await new Promise(setImmediate);
      const used = process.cpuUsage(before);
      if (way.hearsNotices) await subscriber.unsubscribe(keys.changes);
      return (used.user + used.system) / (flushes * instruments);
    });
    const deep = await deepReplaces(client, keys, rounds);
    const steady = await steadyTrades(client, keys, rounds);
    const baseline = median(cpuPerWrite[WAYS[0].name]);
    process.stdout.write(
      [
        `Machine: ${describeMachine()}; load average (1 min) at start ${loadAtStart.toFixed(1)}`,
        `Flushes of ${instruments} instruments (5 changed levels per side, 1 trade, the head); ${flushes} flushes per turn, ${rounds} rounds after one of warm-up`,
        '',
        '| way | client CPU per instrument write, median (min–max) | against the first |',
        '| --- | ---: | ---: |',
        ...WAYS.map((way) => {
          const samples = cpuPerWrite[way.name];
          const range = `${Math.min(...samples).toFixed(1)}–${Math.max(...samples).toFixed(1)}`;
          return `| ${way.name} | ${median(samples).toFixed(1)} µs (${range}) | **${(median(samples) / baseline).toFixed(2)}** |`;
        }),
        '',
        `Deep replaces: ${DEEP_BOOKS} books of ${DEEP_LEVELS} levels a side, ${rounds} rounds after one of warm-up`,
        '',
        '| writer | Redis CPU a level, median (min–max) | against a bare HSET |',
        '| --- | ---: | ---: |',
        ...Object.entries(deep).map(([writer, samples]) => {
          const range = `${Math.min(...samples).toFixed(2)}–${Math.max(...samples).toFixed(2)}`;
          return `| ${writer} | ${median(samples).toFixed(2)} µs (${range}) | **${(median(samples) / median(deep['bare HSET'])).toFixed(2)}** |`;
        }),
        '',
        `A busy market's trades: ${STEADY_INSTRUMENTS} instruments, each adding ${TRADES_A_SECOND} trades a second (one a write) to ${TRADE_MINUTES} minutes of them, trimmed with each write; ${rounds} rounds after one of warm-up`,
        '',
        '| trim | Redis CPU a write, median (min–max) | against a trim to the trade |',
        '| --- | ---: | ---: |',
        ...Object.entries(steady).map(([way, samples]) => {
          const range = `${Math.min(...samples).toFixed(1)}–${Math.max(...samples).toFixed(1)}`;
          return `| ${way} | ${median(samples).toFixed(1)} µs (${range}) | **${(median(samples) / median(steady[STEADY_PEER])).toFixed(2)}** |`;
        }),
        '',
      ].join('\n'),
    );
  } finally {
    client.disconnect();
    subscriber.disconnect();
    await redis.stop();
  }
}

const DEEP_BOOKS = 50;
const DEEP_LEVELS = 675;

/** Redis' CPU microseconds a level of deep replaces, by writer, one sample a round. */
async function deepReplaces(
  client: Redis,
  keys: StoreKeys,
  rounds: number,
): Promise<Record<string, number[]>> {
  const side = (base: number, step: number): PriceLevel[] =>
    Array.from({ length: DEEP_LEVELS }, (_, i) => [
      (base + step * i * 0.01).toFixed(2),
      `${1 + (i % 97)}.125`,
    ]);
  const bids = side(1000, -1);
  const asks = side(1001, 1);
  const instruments = Array.from({ length: DEEP_BOOKS }, (_, i) => `deep${i}_usdt`);
  const writers: Record<string, () => Promise<unknown>> = {
    'the write script': () =>
      writeAll(
        client,
        keys,
        instruments.map((instrument) => ({
          instrument,
          replace: true,
          head: head(instrument, 1),
          levels: { bids, asks },
        })),
      ),
    'bare HSET': () => {
      const pipeline = client.pipeline();
      for (const instrument of instruments) {
        const { bids: bidKey, asks: askKey } = keys.instrument(instrument);
        pipeline.del(bidKey, askKey);
        pipeline.hset(bidKey, ...bids.flat());
        pipeline.hset(askKey, ...asks.flat());
      }
      return pipeline.exec();
    },
  };
  const ways = Object.entries(writers).map(([name, write]) => ({ name, write }));
  return takingTurns(
    ways,
    rounds,
    async ({ write }) => ((await redisCpuUsed(client, write)) * 1e6) / (DEEP_BOOKS * DEEP_LEVELS * 2),
  );
}

const STEADY_INSTRUMENTS = 20;
const TRADES_A_SECOND = 20;
const TRADE_MINUTES = 10;
const STEADY_FLUSHES = 50;
const STEADY_PEER = 'to the trade';

/**
 * Redis' CPU microseconds a write of a busy market with a full window, by trim, one
 * sample a round. Each way has instruments of its own and goes on in time from its last round.
 */
async function steadyTrades(
  client: Redis,
  keys: StoreKeys,
  rounds: number,
): Promise<Record<string, number[]>> {
  const ways: { name: string; trim: (cutOff: number) => number }[] = [
    { name: STEADY_PEER, trim: (cutOff) => cutOff },
    { name: 'whole minutes (as written)', trim: wholeMinutesBefore },
  ];
  const spacing = 1000 / TRADES_A_SECOND;
  const windowMs = TRADE_MINUTES * MINUTE_MS;
  // Half a minute into the newest minute, so the open one holds half a minute of trades.
  const start = Math.floor(Date.now() / MINUTE_MS) * MINUTE_MS - windowMs + MINUTE_MS / 2;
  let nextId = 0;
  const tradeAt = (instrument: string, time: number): Trade => ({
    id: String(nextId++),
    instrument,
    price: '101.3',
    amount: '0.01',
    side: 'buy',
    time,
  });
  const state = ways.map((way, index) => ({
    ...way,
    instruments: Array.from({ length: STEADY_INSTRUMENTS }, (_, i) => `steady${index}x${i}_usdt`),
    time: start + windowMs,
    version: 1,
  }));
  for (const { instruments } of state) {
    const day = instruments.map((instrument) => ({
      instrument,
      replace: true,
      head: head(instrument, 1),
      tradesAdded: Array.from({ length: windowMs / spacing }, (_, k) =>
        tradeAt(instrument, start + k * spacing),
      ),
    }));
    await writeAll(client, keys, day);
  }
  return takingTurns(state, rounds, async (way) => {
    const used = await redisCpuUsed(client, async () => {
      for (let flush = 0; flush < STEADY_FLUSHES; flush++) {
        way.version++;
        const time = way.time;
        way.time += spacing;
        const writes = way.instruments.map((instrument) => ({
          instrument,
          replace: false,
          head: head(instrument, way.version),
          tradesAdded: [tradeAt(instrument, time)],
          tradesBefore: way.trim(time - windowMs),
        }));
        await writeAll(client, keys, writes);
      }
    });
    return (used * 1e6) / (STEADY_FLUSHES * STEADY_INSTRUMENTS);
  });
}

/**
 * Samples of `measure` for each way, one a round after a round of warm-up, by the ways' names. Each
 * round starts with another way, so that none always follows the same one.
 */
async function takingTurns<Way extends { readonly name: string }>(
  ways: readonly Way[],
  rounds: number,
  measure: (way: Way) => Promise<number>,
): Promise<Record<string, number[]>> {
  const samples: Record<string, number[]> = Object.fromEntries(ways.map((way) => [way.name, []]));
  for (let round = -1; round < rounds; round++) {
    for (let turn = 0; turn < ways.length; turn++) {
      const way = ways[(turn + Math.max(round, 0)) % ways.length];
      const sample = await measure(way);
      if (round >= 0) samples[way.name].push(sample);
    }
  }
  return samples;
}

/** Redis' CPU seconds (all its threads) while `work` ran. */
async function redisCpuUsed(client: Redis, work: () => Promise<unknown>): Promise<number> {
  const before = await redisCpuSeconds(client);
  await work();
  return (await redisCpuSeconds(client)) - before;
}

/** `writes` through the store's write script, as the store sends them. */
async function writeAll(
  client: Redis,
  keys: StoreKeys,
  writes: readonly InstrumentWrite[],
  options: WriteCallOptions = {},
): Promise<void> {
  const calls = instrumentWriteCalls(keys, writes, options);
  await INSTRUMENT_WRITE_SCRIPT.runAll(
    client,
    calls.map(({ call }) => call),
  );
}

/** One flush of the ingest under a burst: every instrument changed a few levels and traded once. */
function burstFlush(instruments: number, version: number): InstrumentWrite[] {
  const now = Date.now();
  return Array.from({ length: instruments }, (_, i) => {
    const instrument = `m${i}_usdt`;
    const level = (base: number, k: number): PriceLevel => [
      `${base + k}.${(version * 7 + k) % 100}`,
      k === 0 ? '0' : `${k}.125`,
    ];
    return {
      instrument,
      replace: false,
      head: {
        instrument,
        bookVersion: version,
        bookUpdatedAt: now,
        syncState: 'live',
        bestBid: ['101.25', '0.5'],
        bestAsk: ['101.5', '1.25'],
        stats: { ...EMPTY_STATS, last: '101.3', open: '99.1', high: '105.2', low: '98.7', tradeCount: 3400 },
        tradesRevision: version,
        tradeFeed: 'live',
        lastEventAt: now,
        confirmedAt: now,
      },
      levels: {
        bids: Array.from({ length: 5 }, (_, k) => level(100, k)),
        asks: Array.from({ length: 5 }, (_, k) => level(102, k)),
      },
      tradesAdded: [
        {
          id: String(version * instruments + i),
          instrument,
          price: '101.3',
          amount: '0.01',
          side: 'buy',
          time: now,
        },
      ],
    };
  });
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
