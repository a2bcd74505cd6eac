import { MarketViews } from '../../src/api/views/market-views';
import { OrderBook } from '../../src/market/order-book';
import { TradeWindow } from '../../src/market/trade-window';
import { RedisStateStore } from '../../src/store/redis-state-store';
import { instrumentName, levelUpdates, marketHead, marketState } from './memory-fixture';

/**
 * One measurement of the memory benchmark, in a fresh process so that nothing else is on its heap.
 * `MEM_MODE=ingest`: builds what an ingest replica keeps per market (the order book and the
 * 24-hour trade window, the real classes); `MEM_MODE=api`: has the API's own MarketViews read and
 * cache every market's full book and trade list from the Redis at `MEM_REDIS_URL`;
 * `MEM_MODE=api-objects`: the same book and trades read and kept as trade objects, as the API held
 * them before its trade columns. Prints
 * `{ rssBefore, rssAfter, heapBefore, heapAfter }` in bytes, measured after full collections; heap
 * counts the buffers of typed arrays too. `api` also gives `heapMoved`: once each market's window
 * moved by a trade (one added, the oldest dropped, written to that Redis) and the views brought
 * their list up to date from the tail, as they hold it between two full reads.
 * Run with --expose-gc.
 */
async function main(): Promise<void> {
  const mode = process.env.MEM_MODE;
  const markets = Number(process.env.MEM_MARKETS);
  const depth = Number(process.env.MEM_DEPTH);
  const tradeCount = Number(process.env.MEM_TRADES);
  const now = Number(process.env.MEM_NOW);
  const kept: unknown[] = [];
  let store: RedisStateStore | undefined;
  let views: MarketViews | undefined;
  if (mode === 'api' || mode === 'api-objects') {
    store = RedisStateStore.fromUrl(required('MEM_REDIS_URL'));
    await store.ready();
  }
  if (mode === 'api' && store) {
    views = new MarketViews(store);
    await views.onApplicationBootstrap();
  }
  const before = settled();
  for (let index = 0; index < markets; index++) {
    const instrument = instrumentName(index);
    if (mode === 'ingest') {
      kept.push(ingestMarket(index, depth, tradeCount, now));
    } else if (views) {
      // The views keep both; what they hand out is not kept here.
      if (!(await views.book(instrument)) || (await views.tradeList(instrument)).length !== tradeCount)
        throw new Error(`${instrument}: the views did not read the stored book and trades`);
    } else if (store) {
      kept.push({ book: await store.readBook(instrument), trades: await store.readTrades(instrument) });
    }
  }
  const after = settled();
  let heapMoved: number | undefined;
  if (views && store && tradeCount > 0) {
    for (let index = 0; index < markets; index++) await moveWindow(store, views, index, tradeCount, now);
    heapMoved = heapOf(settled());
  }
  process.stdout.write(
    `${JSON.stringify({ rssBefore: before.rss, rssAfter: after.rss, heapBefore: heapOf(before), heapAfter: heapOf(after), heapMoved, kept: kept.length })}\n`,
  );
  await views?.onApplicationShutdown();
  await store?.close();
}

/**
 * Adds the market's next trade and drops its oldest, as the ingest's write does a second later, and
 * waits for the views to bring their list up to date from the tail (a full read would not count).
 */
async function moveWindow(
  store: RedisStateStore,
  views: MarketViews,
  index: number,
  tradeCount: number,
  now: number,
): Promise<void> {
  const state = marketState(index, 0, tradeCount + 1, now + 1000);
  const added = state.trades[tradeCount];
  const fullRead = store.readTrades.bind(store);
  let fullReads = 0;
  store.readTrades = (instrument) => {
    fullReads++;
    return fullRead(instrument);
  };
  await store.write([
    {
      instrument: state.instrument,
      replace: false,
      head: { ...marketHead(state, now), tradesRevision: 2 },
      tradesAdded: [added],
      tradesBefore: state.trades[0].time,
    },
  ]);
  for (let waited = 0; ; waited += 10) {
    const list = await views.tradeList(state.instrument);
    if (list.length === tradeCount && list.idAt(list.length - 1) === added.id) break;
    if (waited > 5000) throw new Error(`${state.instrument}: the views did not take the new trade`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  store.readTrades = fullRead;
  if (fullReads > 0) throw new Error(`${state.instrument}: the list was read in full, not from its tail`);
}

/**
 * What the ingest keeps of one market. A function of its own, so that the fixture it was built from
 * is garbage once it returns (a variable of the loop's last turn may stay reachable from its frame).
 */
function ingestMarket(index: number, depth: number, tradeCount: number, now: number): unknown {
  const state = marketState(index, depth, tradeCount, now);
  const book = new OrderBook();
  book.replace(levelUpdates(state), 1, now);
  book.takeChanges();
  const window = new TradeWindow();
  window.add(state.trades, now);
  return { book, window };
}

/** The JavaScript heap and the typed arrays' buffers, which live outside it. */
function heapOf(usage: NodeJS.MemoryUsage): number {
  return usage.heapUsed + usage.arrayBuffers;
}

function settled(): NodeJS.MemoryUsage {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  gc();
  gc();
  return process.memoryUsage();
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
