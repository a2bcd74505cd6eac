import { tuning } from '../../src/config/tuning';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { Registry } from 'prom-client';
import { ListingHealthService } from '../../src/api/listing-health/listing-health-service';
import { ListingService } from '../../src/api/views/listing-service';
import { MarketViews } from '../../src/api/views/market-views';
import { loadConfig } from '../../src/config/load-config';
import { formatUnits } from '../../src/market/fixed-point';
import { bookLiquidity } from '../../src/market/listing-health/book-liquidity';
import { MarketInfo } from '../../src/market/market-info';
import { EMPTY_STATS } from '../../src/market/market-stats';
import { RedisStateStore } from '../../src/store/redis-state-store';
import { BookView, InstrumentHead, InstrumentWrite, PriceLevel } from '../../src/store/state-store';
import { startRedisServer } from '../support/redis-server';
import { percentile, positive, progress, sleep } from './bench-process';
import { describeMachine } from './machine';

/**
 * What a refresh of `/listing-health` costs an API replica at exchange scale: `--markets` markets of
 * `--levels` levels a side in a private redis-server, every book moved since the last refresh (the
 * worst case: a busy exchange). Measured in one process, rounds taking turns:
 *
 * - the floor: reading every book from the store (`readBook`, as many at once as the refresh reads),
 *   which any figure of the depth needs;
 * - the refresh: `ListingHealthService.report()` when every book moved: the same reads through the
 *   API's book cache, the spread and ±2 % depths of each book, the dollar prices, every market's figures;
 * - the figures alone: `bookLiquidity` over the books already in memory, and a report when no book
 *   moved (the ages and flags of every market, what each request costs between refreshes).
 *
 *   node -r ./test/bench/swc-register.js test/bench/listing-health-bench.ts [--markets 1000] [--levels 1000] [--rounds 5]
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      markets: { type: 'string', default: '1000' },
      levels: { type: 'string', default: '1000' },
      rounds: { type: 'string', default: '5' },
      full: { type: 'boolean', default: false },
    },
  });
  const marketCount = positive(values.markets, 'markets');
  const levels = positive(values.levels, 'levels');
  const rounds = values.full ? 15 : positive(values.rounds, 'rounds');
  const loadAtStart = loadavg()[0];
  const started = new Date();
  const redis = await startRedisServer({ args: [] });
  const store = RedisStateStore.fromUrl(redis.url);
  const config = loadConfig({ ROLE: 'api', REDIS_URL: redis.url });
  const views = new MarketViews(store);
  try {
    await store.ready();
    const markets = Array.from({ length: marketCount }, (_, index) => market(index));
    await store.writeCatalog({ markets, assets: [], refreshedAt: Date.now() });
    progress(`writing ${marketCount} books of ${levels} levels a side`);
    let version = 1;
    await writeBooks(store, markets, levels, version);
    await views.onApplicationBootstrap();
    const health = new ListingHealthService(
      new ListingService(views),
      views,
      config,
      tuning({ listingHealthRefreshMs: 100 }),
      new Registry(),
    );

    const floor: number[] = [];
    const floorCpu: number[] = [];
    const refresh: number[] = [];
    const refreshCpu: number[] = [];
    const figures: number[] = [];
    const report: number[] = [];
    for (let round = -1; round < rounds; round++) {
      version++;
      await moveEveryBook(store, markets, version);
      await waitForHeads(views, markets, version);
      // Older than three refresh intervals: the report waits for the books instead of serving the last.
      await sleep(350);

      const readCpu = process.cpuUsage();
      let at = performance.now();
      const books = await readAll(store, markets);
      const floorMs = performance.now() - at;
      const readUsed = process.cpuUsage(readCpu);

      const cpu = process.cpuUsage();
      at = performance.now();
      await health.report();
      const refreshMs = performance.now() - at;
      const used = process.cpuUsage(cpu);

      at = performance.now();
      for (const book of books) bookLiquidity(book.bids, book.asks);
      const figuresMs = performance.now() - at;

      at = performance.now();
      JSON.stringify(await health.report());
      const reportMs = performance.now() - at;

      if (round < 0) continue;
      floor.push(floorMs);
      floorCpu.push((readUsed.user + readUsed.system) / 1000);
      refresh.push(refreshMs);
      refreshCpu.push((used.user + used.system) / 1000);
      figures.push(figuresMs);
      report.push(reportMs);
      progress(
        `round ${round + 1}: read ${floorMs.toFixed(0)} ms, refresh ${refreshMs.toFixed(0)} ms, figures ${figuresMs.toFixed(0)} ms, report ${reportMs.toFixed(1)} ms`,
      );
    }
    const median = (values: number[]) => percentile(values, 50);
    const lines = [
      `Run ${started.toISOString()}, ${Math.round((Date.now() - started.getTime()) / 1000)} s`,
      `Machine: ${describeMachine()}`,
      `Command: node -r ./test/bench/swc-register.js test/bench/listing-health-bench.ts ${process.argv.slice(2).join(' ')}`,
      `${marketCount} markets, ${levels} levels a side (${Math.round(levels * 0.2)} of them within 2 % of the mid), every book moved before each refresh; medians of ${rounds} rounds`,
      `Load average (1 min) at start and end: ${loadAtStart.toFixed(2)}, ${loadavg()[0].toFixed(2)}`,
      '',
      '| figure | median (min–max) | per market |',
      '| --- | ---: | ---: |',
      row('reading every book from Redis (the floor)', floor, marketCount),
      row('its CPU in the process', floorCpu, marketCount),
      row('**a refresh**: reading every book and computing every figure', refresh, marketCount),
      row('its CPU in the process', refreshCpu, marketCount),
      row('spread and ±2 % depths of every book, in memory', figures, marketCount),
      row('a report between refreshes (ages, dollars, flags, JSON)', report, marketCount),
      '',
      `A refresh takes **${(median(refresh) / median(floor)).toFixed(2)}** times reading the books alone, ` +
        `**${(median(refreshCpu) / median(floorCpu)).toFixed(2)}** times its CPU.`,
      '',
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await views.onApplicationShutdown();
    await store.close();
    await redis.stop();
  }
}

function row(name: string, values: number[], markets: number): string {
  const median = percentile(values, 50);
  const range = `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}`;
  return `| ${name} | ${median.toFixed(1)} ms (${range}) | ${((median * 1000) / markets).toFixed(1)} µs |`;
}

function market(index: number): MarketInfo {
  const base = `m${String(index).padStart(5, '0')}`;
  return {
    instrument: `${base}_usdt`,
    baseAsset: base,
    quoteAsset: 'usdt',
    priceScale: 2,
    amountScale: 6,
    minAmount: '0.000001',
    priceDeviation: '0.1',
    makerFee: '0.001',
    takerFee: '0.002',
    hidden: false,
    status: 'Open',
    side: 'both',
    isCustom: false,
    createdAt: '2026-01-01T00:00:00Z',
    updatedAt: '2026-01-01T00:00:00Z',
  };
}

/** Levels a cent apart around 100.00: a fifth of each side lies within 2 % of the mid. */
function side(levels: number, sign: 1 | -1, seed: number): PriceLevel[] {
  return Array.from({ length: levels }, (_, i): PriceLevel => [
    formatUnits(10_000n + BigInt(sign * (i + 1)), 2),
    formatUnits(BigInt(1_000_000 + ((seed * 7919 + i * 104_729) % 9_000_000)), 6),
  ]);
}

function head(market: MarketInfo, version: number, bids: PriceLevel[], asks: PriceLevel[]): InstrumentHead {
  const now = Date.now();
  return {
    instrument: market.instrument,
    bookVersion: version,
    bookUpdatedAt: now,
    syncState: 'live',
    bestBid: bids[0],
    bestAsk: asks[0],
    stats: { ...EMPTY_STATS, baseVolume: '1234.5', quoteVolume: '123450', tradeCount: 500 },
    lastTrade: { price: '100', time: now - 1_000 },
    tradesRevision: 1,
    tradeFeed: 'live',
    lastEventAt: now,
    confirmedAt: now,
  };
}

async function writeBooks(
  store: RedisStateStore,
  markets: readonly MarketInfo[],
  levels: number,
  version: number,
): Promise<void> {
  for (let from = 0; from < markets.length; from += 50) {
    const writes = markets.slice(from, from + 50).map((market, offset): InstrumentWrite => {
      const bids = side(levels, -1, from + offset);
      const asks = side(levels, 1, from + offset);
      return {
        instrument: market.instrument,
        replace: true,
        head: head(market, version, bids, asks),
        levels: { bids, asks },
      };
    });
    await store.write(writes);
  }
}

/** One level of each book changes its amount, so that every book has a new version. */
async function moveEveryBook(
  store: RedisStateStore,
  markets: readonly MarketInfo[],
  version: number,
): Promise<void> {
  const writes = markets.map((market): InstrumentWrite => {
    const bid: PriceLevel = ['99.95', formatUnits(BigInt(version * 1_000 + 1), 6)];
    return {
      instrument: market.instrument,
      replace: false,
      head: head(market, version, [['99.99', '1']], [['100.01', '1']]),
      levels: { bids: [bid], asks: [] },
    };
  });
  await store.write(writes);
}

async function waitForHeads(
  views: MarketViews,
  markets: readonly MarketInfo[],
  version: number,
): Promise<void> {
  while (markets.some((market) => views.head(market.instrument)?.bookVersion !== version)) await sleep(10);
}

/** Every book, eight reads in flight at a time, as the refresh reads them. */
async function readAll(store: RedisStateStore, markets: readonly MarketInfo[]): Promise<BookView[]> {
  const books: BookView[] = [];
  let next = 0;
  const reader = async () => {
    while (next < markets.length) {
      const book = await store.readBook(markets[next++].instrument);
      if (book) books.push(book);
    }
  };
  await Promise.all(Array.from({ length: 8 }, reader));
  return books;
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
