import { execFile } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parseArgs } from 'node:util';
import Redis from 'ioredis';
import { InstrumentWrite } from '../../src/store/state-store';
import { RedisStateStore } from '../../src/store/redis-state-store';
import { startRedisServer } from '../support/redis-server';
import { progress } from './bench-process';
import { describeMachine } from './machine';
import { marketCatalog, marketHead, marketState } from './memory-fixture';

/**
 * Memory per market, in Redis and in the gateway's processes, at a given depth and number of
 * stored trades, and how it grows with markets and depth:
 *
 * - Redis: a private redis-server, flushed before each case; the state is written through the
 *   store's own API (RedisStateStore.write, as the ingest writes it: levels as hashes, trades packed
 *   per minute in a hash, the head as JSON). `INFO memory` used_memory before and after, divided by
 *   the markets; `MEMORY USAGE` (SAMPLES 0, exact) of one market's keys, for bytes a trade.
 * - Ingest replica: a fresh process builds what the ingest keeps per market (the real OrderBook and
 *   TradeWindow holding the same levels and trades); heap (with typed-array buffers) and RSS after
 *   full collections, before and after.
 * - API replica: a fresh process has the API's MarketViews read every market's full book and trade
 *   list from that Redis, which is what the API caches per market once both were requested (the
 *   rendered response bodies come on top); and, for comparison, the same read into trade objects,
 *   which is what the API held before it kept its trades in columns.
 *
 * Trades are written as a day at one trade per second (86,400) rather than simulated for 24 hours.
 *
 *   node -r ./test/bench/swc-register.js test/bench/memory-bench.ts         1 and 4 markets; 100, 1,000, 5,000 levels
 *   ... memory-bench.ts --full                                              10, 50 and 200 markets (about 4 GB of Redis)
 *   ... memory-bench.ts --markets 10,50 --depth-markets 10                  any series
 */

const DAY_OF_TRADES = 86_400;
const TRADE_CHUNK = 20_000;

interface Case {
  readonly markets: number;
  readonly depth: number;
  readonly trades: number;
}

interface ProcessMemory {
  readonly rssBefore: number;
  readonly rssAfter: number;
  readonly heapBefore: number;
  readonly heapAfter: number;
  /** The API's heap once each market's window moved by a trade (see memory-process). */
  readonly heapMoved?: number;
}

interface CaseResult extends Case {
  readonly redisPerMarket: number;
  /** MEMORY USAGE of the first market's keys. */
  readonly keys: { head: number; bids: number; asks: number; trades: number };
  readonly ingest: ProcessMemory;
  readonly api: ProcessMemory;
  readonly apiObjects: ProcessMemory;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      full: { type: 'boolean', default: false },
      markets: { type: 'string' },
      'depth-markets': { type: 'string' },
    },
  });
  // Per-market figures hardly move with the number of markets, so the quick run keeps them few.
  const series = (values.markets ?? (values.full ? '10,50,200' : '1,4')).split(',').map(Number);
  const small = Number(values['depth-markets'] ?? (values.full ? '10' : '1'));
  if (![...series, small].every((n) => Number.isInteger(n) && n > 0))
    throw new Error('--markets: a comma-separated list of positive integers; --depth-markets: one');
  const cases: Case[] = [
    ...series.map((markets) => ({ markets, depth: 1000, trades: DAY_OF_TRADES })),
    { markets: small, depth: 100, trades: DAY_OF_TRADES },
    { markets: small, depth: 5000, trades: DAY_OF_TRADES },
    { markets: small, depth: 1000, trades: 0 },
  ];
  const started = new Date();
  const loadAtStart = loadavg()[0];
  const redis = await startRedisServer({ args: [] });
  const admin = new Redis(redis.url);
  const results: CaseResult[] = [];
  try {
    for (const testCase of cases) {
      progress(
        `memory: ${testCase.markets} markets, ${testCase.depth} levels/side, ${testCase.trades} trades each`,
      );
      results.push(await measureCase(testCase, redis.url, admin));
    }
  } finally {
    admin.disconnect();
    await redis.stop();
  }
  process.stdout.write(`${report(results, started, loadAtStart).join('\n')}\n`);
}

async function measureCase(testCase: Case, redisUrl: string, admin: Redis): Promise<CaseResult> {
  await admin.flushall();
  const usedBefore = await usedMemory(admin);
  const now = Date.now();
  const store = RedisStateStore.fromUrl(redisUrl);
  await store.ready();
  try {
    await store.writeCatalog(marketCatalog(testCase.markets, now));
    for (let index = 0; index < testCase.markets; index++) {
      const state = marketState(index, testCase.depth, testCase.trades, now);
      const head = marketHead(state, now);
      const writes: InstrumentWrite[] = [
        { instrument: state.instrument, replace: true, head, levels: { bids: state.bids, asks: state.asks } },
      ];
      for (let from = 0; from < state.trades.length; from += TRADE_CHUNK)
        writes.push({
          instrument: state.instrument,
          replace: false,
          head,
          tradesAdded: state.trades.slice(from, from + TRADE_CHUNK),
        });
      for (const write of writes) await store.write([write]);
    }
  } finally {
    await store.close();
  }
  const usedAfter = await usedMemory(admin);
  const first = store.keys.instrument(marketState(0, 0, 0, now).instrument);
  const usage = async (key: string): Promise<number> =>
    Number((await admin.call('MEMORY', 'USAGE', key, 'SAMPLES', '0')) ?? 0);
  const keys = {
    head: await usage(first.head),
    bids: await usage(first.bids),
    asks: await usage(first.asks),
    trades: (await usage(first.tradeHistory)) + (await usage(first.tradeOpenMinute)),
  };
  const env = {
    MEM_MARKETS: String(testCase.markets),
    MEM_DEPTH: String(testCase.depth),
    MEM_TRADES: String(testCase.trades),
    MEM_NOW: String(now),
  };
  const ingest = await measureProcess({ ...env, MEM_MODE: 'ingest' });
  const apiObjects = await measureProcess({ ...env, MEM_MODE: 'api-objects', MEM_REDIS_URL: redisUrl });
  // Last: it moves each market's window by a trade in Redis.
  const api = await measureProcess({ ...env, MEM_MODE: 'api', MEM_REDIS_URL: redisUrl });
  return {
    ...testCase,
    redisPerMarket: (usedAfter - usedBefore) / testCase.markets,
    keys,
    ingest,
    api,
    apiObjects,
  };
}

async function measureProcess(env: Record<string, string>): Promise<ProcessMemory> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      '--expose-gc',
      '--max-old-space-size=16000',
      '-r',
      join(__dirname, 'swc-register.js'),
      join(__dirname, 'memory-process.ts'),
    ],
    { env: { ...process.env, ...env }, maxBuffer: 1 << 20 },
  );
  return JSON.parse(stdout.trim().split('\n').pop() ?? '') as ProcessMemory;
}

async function usedMemory(admin: Redis): Promise<number> {
  const info = await admin.info('memory');
  const match = /^used_memory:(\d+)/m.exec(info);
  if (!match) throw new Error('INFO memory without used_memory');
  return Number(match[1]);
}

function report(results: readonly CaseResult[], started: Date, loadAtStart: number): string[] {
  const mib = (bytes: number): string => (bytes / 2 ** 20).toFixed(2);
  const kib = (bytes: number): string => (bytes / 1024).toFixed(0);
  const perMarket = (memory: ProcessMemory, key: 'rss' | 'heap', markets: number): number =>
    (key === 'rss' ? memory.rssAfter - memory.rssBefore : memory.heapAfter - memory.heapBefore) / markets;
  const lines = [
    `Run ${started.toISOString()}, ${Math.round((Date.now() - started.getTime()) / 1000)} s`,
    `Machine: ${describeMachine()}`,
    `Command: node -r ./test/bench/swc-register.js test/bench/memory-bench.ts${process.argv.length > 2 ? ` ${process.argv.slice(2).join(' ')}` : ''}`,
    `Load average (1 min) at start and end: ${loadAtStart.toFixed(2)}, ${loadavg()[0].toFixed(2)}`,
    '',
    'Per market, MiB (Redis: used_memory growth / markets; processes: growth after full collections / markets)',
    '',
    '| markets | levels/side | trades | **Redis** | ingest heap | ingest RSS | API heap | API RSS | Redis keys of one market, KiB: head / bids / asks / trades |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
  ];
  const tradeRows = results.filter((r) => r.trades > 0);
  const withoutTrades = (r: CaseResult): CaseResult | undefined =>
    results.find((other) => other.trades === 0 && other.depth === r.depth && other.markets === r.markets);
  for (const r of results) {
    lines.push(
      `| ${r.markets} | ${r.depth} | ${r.trades} | **${mib(r.redisPerMarket)}** | ` +
        `${mib(perMarket(r.ingest, 'heap', r.markets))} | ${mib(perMarket(r.ingest, 'rss', r.markets))} | ` +
        `${mib(perMarket(r.api, 'heap', r.markets))} | ${mib(perMarket(r.api, 'rss', r.markets))} | ` +
        `${kib(r.keys.head)} / ${kib(r.keys.bids)} / ${kib(r.keys.asks)} / ${kib(r.keys.trades)} |`,
    );
  }
  lines.push(
    '',
    "Bytes a trade. Redis: MEMORY USAGE of one market's trades / trades. Heaps: growth per market less",
    'that of the same markets and depth without trades, / trades (only where the run has that case).',
    'API heap: the trades as MarketViews holds them after a full read, and once the window moved by a',
    'trade (brought up to date from the tail, as between two full reads); as objects: the same trades',
    'read into trade objects, as the API held them before.',
    '',
    '| markets | levels/side | trades | **Redis** | ingest heap | API heap, as objects | **API heap**, full read / window moved |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  );
  for (const r of tradeRows) {
    const base = withoutTrades(r);
    const heap = (memory: (c: CaseResult) => ProcessMemory, moved = false): string => {
      const held = memory(r);
      const grown = moved && held.heapMoved !== undefined ? { ...held, heapAfter: held.heapMoved } : held;
      return base
        ? (
            (perMarket(grown, 'heap', r.markets) - perMarket(memory(base), 'heap', base.markets)) /
            r.trades
          ).toFixed(1)
        : '-';
    };
    lines.push(
      `| ${r.markets} | ${r.depth} | ${r.trades} | ` +
        `**${(r.keys.trades / r.trades).toFixed(1)}** | ${heap((c) => c.ingest)} | ` +
        `${heap((c) => c.apiObjects)} | **${heap((c) => c.api)}** / **${heap((c) => c.api, true)}** |`,
    );
  }
  lines.push('');
  return lines;
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
