import { Logger } from '@nestjs/common';
import { MarketCatalog } from '../../market/market-info';
import { MemoryStateStore } from '../../store/memory-state-store';
import { ChangeSubscription, ChangeNotice, InstrumentWrite, StateStore } from '../../store/state-store';
import { eventually, head, market, trade } from '../../store/testing/state-store-contract';
import { ApiError } from '../http/api-error';
import { MarketViews } from './market-views';

const BTC = 'btc_usdt';
const NOW = Date.now();

const CATALOG: MarketCatalog = {
  markets: [market(BTC)],
  assets: [],
  refreshedAt: NOW,
};

/**
 * A store whose server can restart empty, as Redis without persistence does: every call goes to the
 * server of the moment, change notices of each server reach the listeners, and a restart is told to
 * the reset listeners, as the Redis store's epoch check does.
 */
class RestartableStore implements StateStore {
  private server = new MemoryStateStore();
  private readonly listeners = new Set<(notice: ChangeNotice) => void>();
  private readonly resetListeners = new Set<() => void>();
  private forwarding = this.forward();

  restartEmpty(): void {
    this.forwarding();
    this.server = new MemoryStateStore();
    this.forwarding = this.forward();
    this.resetListeners.forEach((listener) => listener());
  }

  write(batch: readonly InstrumentWrite[]) {
    return this.server.write(batch);
  }
  writeCatalog(catalog: MarketCatalog) {
    return this.server.writeCatalog(catalog);
  }
  readCatalog() {
    return this.server.readCatalog();
  }
  readHeads(instruments: readonly string[]) {
    return this.server.readHeads(instruments);
  }
  readBook(instrument: string) {
    return this.server.readBook(instrument);
  }
  readTrades(instrument: string) {
    return this.server.readTrades(instrument);
  }
  readTradesFrom(instrument: string, from: number) {
    return this.server.readTradesFrom(instrument, from);
  }
  trimTrades(instruments: readonly string[], before: number) {
    return this.server.trimTrades(instruments, before);
  }
  onChange(listener: (notice: ChangeNotice) => void) {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }
  onReset(listener: () => void) {
    this.resetListeners.add(listener);
    return () => void this.resetListeners.delete(listener);
  }
  followInstrument(): ChangeSubscription {
    return { ready: Promise.resolve(), close: () => undefined };
  }
  readOwnership(instruments: readonly string[]) {
    return this.server.readOwnership(instruments);
  }

  health() {
    return this.server.health();
  }
  close() {
    return this.server.close();
  }

  private forward(): () => void {
    return this.server.onChange((notice) => this.listeners.forEach((listener) => listener(notice)));
  }
}

/** What the views logged in the current test, as `level message`. */
const logged: string[] = [];

beforeEach(() => {
  logged.length = 0;
  for (const level of ['error', 'warn', 'log'] as const) {
    jest
      .spyOn(Logger.prototype, level)
      .mockImplementation((...args: unknown[]) => void logged.push(`${level} ${String(args[0])}`));
  }
});
afterEach(() => jest.restoreAllMocks());

function bookWrite(version: number, tradesRevision: number, trades: string[] = []): InstrumentWrite {
  return {
    instrument: BTC,
    replace: false,
    head: head(BTC, version, { tradesRevision }),
    levels: { bids: [[String(100 - version), '1']], asks: [[String(200 + version), '1']] },
    tradesAdded: trades.map((id, index) => trade(id, NOW - 60_000 + index)),
  };
}

/** A write of version `version` adding trades made `agoMs` before now; version 1 replaces everything. */
function tradesWrite(version: number, added: [id: string, agoMs: number][]): InstrumentWrite {
  return {
    ...bookWrite(version, version),
    replace: version === 1,
    tradesAdded: added.map(([id, agoMs]) => trade(id, NOW - agoMs)),
  };
}

describe('MarketViews when the store restarts empty', () => {
  let store: RestartableStore;
  let views: MarketViews;

  beforeEach(async () => {
    store = new RestartableStore();
    await store.writeCatalog(CATALOG);
    await store.write([{ ...bookWrite(1, 1, ['t1', 't2']), replace: true }]);
    views = new MarketViews(store);
    await views.onApplicationBootstrap();
  });
  afterEach(() => views.onApplicationShutdown());

  it('serves the last good book and trades until the writer puts them back, instead of none', async () => {
    expect((await views.book(BTC))?.version).toBe(1);
    expect((await views.tradeList(BTC)).toArray().map((t) => t.id)).toEqual(['t1', 't2']);
    // A change the views hear of, but whose trades nobody reads before the restart; the book read
    // before follows it.
    await store.write([bookWrite(2, 2, ['t3'])]);
    await eventually(() => expect(views.head(BTC)?.bookVersion).toBe(2));

    expect(views.servesLastGood).toBe(false);
    store.restartEmpty();
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect((await views.book(BTC))?.version).toBe(2);
    expect((await views.tradeList(BTC)).toArray().map((t) => t.id)).toEqual(['t1', 't2']);
    // Served, but said to be the last good state: the store has no book to match it.
    expect(views.servesLastGood).toBe(true);
    expect(views.stale).toBe(false);

    // The writer puts everything back.
    await store.writeCatalog(CATALOG);
    await store.write([{ ...bookWrite(3, 3, ['t1', 't2', 't3']), replace: true }]);
    await eventually(async () => {
      expect((await views.book(BTC))?.version).toBe(3);
      expect((await views.tradeList(BTC)).toArray().map((t) => t.id)).toEqual(['t1', 't2', 't3']);
      expect(views.servesLastGood).toBe(false);
    });
  });

  it('keeps serving trades the store lost while others were written, until they are stored again', async () => {
    const listed = async () => (await views.tradeList(BTC)).toArray().map((t) => t.id);
    expect(await listed()).toEqual(['t1', 't2']);
    // A promoted replica that missed the newest trade, or a new writer still fetching its history.
    store.restartEmpty();
    await store.writeCatalog(CATALOG);
    // bookWrite made t1 and t2 60,000 and 59,999 ms ago.
    await store.write([{ ...tradesWrite(2, [['t1', 60_000]]), replace: true }]);
    await store.write([tradesWrite(3, [['t3', 59_998]])]);
    await eventually(() => expect(views.head(BTC)?.tradesRevision).toBe(3));
    expect(await listed()).toEqual(['t1', 't2', 't3']);
    expect(views.servesLastGood).toBe(true);

    // Read again once the writer moved on, without a request for them.
    await store.write([
      tradesWrite(4, [
        ['t2', 59_999],
        ['t4', 59_997],
      ]),
    ]);
    await eventually(() => expect(views.servesLastGood).toBe(false));
    expect(await listed()).toEqual(['t1', 't2', 't3', 't4']);
    expect(logged).toEqual([
      `warn ${BTC}: the store lacks 1 trade(s) served before, served from memory until it holds them again`,
      `log ${BTC}: the store holds every trade served again`,
    ]);
  });

  it('says the held state is the last good one when a full reload finds its head gone', async () => {
    store.restartEmpty();
    await store.writeCatalog(CATALOG);
    // The catalogue's notice makes the views read it; the next full reload reads every head.
    await eventually(() => expect(views.servesLastGood).toBe(true), 8_000);
    expect(views.head(BTC)?.bookVersion).toBe(1);

    await store.write([{ ...bookWrite(2, 2, ['t1', 't2']), replace: true }]);
    await eventually(() => expect(views.servesLastGood).toBe(false));
  }, 15_000);
});

describe('MarketViews when the store cannot be reached', () => {
  it('answers 503 for what it never held, and keeps serving what it held', async () => {
    const store = new RestartableStore();
    await store.writeCatalog(CATALOG);
    await store.write([{ ...bookWrite(1, 1, ['t1']), replace: true }]);
    const views = new MarketViews(store);
    await views.onApplicationBootstrap();
    try {
      expect((await views.book(BTC))?.version).toBe(1);
      const unreachable = () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379'));
      store.readBook = unreachable;
      store.readTrades = unreachable;

      // Trades were never read, so there is nothing to fall back on: a 503 the client may retry,
      // without the store's own message.
      const failure = await views.tradeList(BTC).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(ApiError);
      expect(failure).toMatchObject({ status: 503, code: 'store_unavailable' });
      expect((failure as Error).message).not.toContain('ECONNREFUSED');
      expect(logged).toEqual([`warn ${BTC}: the store failed: connect ECONNREFUSED 127.0.0.1:6379`]);
      // The book was read before, so it is still served.
      await store.write([bookWrite(2, 2)]).catch(() => undefined);
      expect((await views.book(BTC))?.version).toBe(1);
    } finally {
      await views.onApplicationShutdown();
    }
  });
});

describe('MarketViews trades read while the head is unknown', () => {
  it('are read again on the next request, and served if the store then fails', async () => {
    const store = new RestartableStore();
    await store.writeCatalog(CATALOG);
    await store.write([{ ...bookWrite(1, 1, ['t1']), replace: true }]);
    const [readTrades, readTradesFrom] = [store.readTrades.bind(store), store.readTradesFrom.bind(store)];
    let reads = 0;
    store.readTrades = (instrument: string) => {
      reads++;
      return readTrades(instrument);
    };
    store.readTradesFrom = (instrument: string, from: number) => {
      reads++;
      return readTradesFrom(instrument, from);
    };
    store.readHeads = () => Promise.resolve(new Map());
    const views = new MarketViews(store);
    await views.onApplicationBootstrap();
    const listed = async () => (await views.tradeList(BTC)).toArray().map(({ id }) => id);
    try {
      expect(views.head(BTC)).toBeUndefined();
      expect(await listed()).toEqual(['t1']);
      expect(await listed()).toEqual(['t1']);
      expect(reads).toBe(2);

      const unreachable = () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379'));
      store.readTrades = unreachable;
      store.readTradesFrom = unreachable;
      expect(await listed()).toEqual(['t1']);
      expect(logged).toEqual([
        `warn ${BTC}: trades served from memory, the store failed: connect ECONNREFUSED 127.0.0.1:6379`,
      ]);
    } finally {
      await views.onApplicationShutdown();
    }
  });
});

describe('MarketViews top of the book', () => {
  it("is the head's best bid and ask at the head's version, current with every notice", async () => {
    const store = new RestartableStore();
    await store.writeCatalog(CATALOG);
    const write = (version: number, bid: string, ask: string): InstrumentWrite => ({
      instrument: BTC,
      replace: version === 1,
      head: head(BTC, version, { bestBid: [bid, '1'], bestAsk: [ask, '2'] }),
      levels: { bids: [[bid, '1']], asks: [[ask, '2']] },
    });
    await store.write([write(1, '99', '201')]);
    const views = new MarketViews(store);
    await views.onApplicationBootstrap();
    try {
      const book = await views.book(BTC);
      expect(views.topOfBook(BTC)).toEqual({ ...book, bids: [['99', '1']], asks: [['201', '2']] });
      // The top follows every notice; a full book is read again only when asked for.
      await store.write([write(2, '99.5', '200.5')]);
      await eventually(() =>
        expect(views.topOfBook(BTC)).toMatchObject({
          version: 2,
          bids: [['99.5', '1']],
          asks: [['200.5', '2']],
        }),
      );
      expect(views.topOfBook('eth_usdt')).toBeUndefined();
    } finally {
      await views.onApplicationShutdown();
    }
  });
});

describe('MarketViews listing generation', () => {
  it('grows when a listed figure changes, and not when only the freshness of the data does, and says so', async () => {
    const store = new RestartableStore();
    await store.writeCatalog(CATALOG);
    const write = (version: number, extra: Parameters<typeof head>[2]): InstrumentWrite => ({
      instrument: BTC,
      replace: false,
      head: head(BTC, version, { bestBid: ['99', '1'], bestAsk: ['101', '1'], ...extra }),
    });
    await store.write([write(1, {})]);
    const views = new MarketViews(store);
    await views.onApplicationBootstrap();
    // The listeners hear of a batch of changes a few milliseconds after its first.
    const settled = async (version: number): Promise<number> => {
      await eventually(() => expect(views.head(BTC)?.bookVersion).toBe(version));
      await eventually(() => expect(announced.at(-1) ?? initial).toBe(views.listingGeneration));
      return views.listingGeneration;
    };
    const initial = views.listingGeneration;
    const announced: number[] = [];
    views.onListingChange(() => announced.push(views.listingGeneration));
    try {
      const start = await settled(1);
      // A new version with other amounts at the same prices, and a newer confirmation: nothing listed moved.
      await store.write([write(2, { bestBid: ['99', '5'], confirmedAt: NOW + 1 })]);
      expect(await settled(2)).toBe(start);
      const stats = { ...head(BTC, 0).stats, baseVolume: '1.5', tradeCount: 1 };
      await store.write([write(3, { stats })]);
      expect(await settled(3)).toBeGreaterThan(start);
      const afterStats = views.listingGeneration;
      await store.write([write(4, { stats, bestAsk: ['100.5', '1'] })]);
      expect(await settled(4)).toBeGreaterThan(afterStats);
      const afterAsk = views.listingGeneration;
      const lastTrade = { price: '100', time: NOW - 1 };
      await store.write([write(5, { stats, bestAsk: ['100.5', '1'], lastTrade })]);
      expect(await settled(5)).toBeGreaterThan(afterAsk);
      expect(announced.at(-1)).toBe(views.listingGeneration);
      expect(new Set(announced).size).toBe(announced.length);
      expect(announced.length).toBeGreaterThanOrEqual(3);
    } finally {
      await views.onApplicationShutdown();
    }
  });
});

describe('MarketViews trade lists', () => {
  it('bring a list up to date from the trades stored since its newest, and read it all again when anything else changed', async () => {
    const store = new RestartableStore();
    await store.writeCatalog(CATALOG);
    await store.write([
      tradesWrite(1, [
        ['1', 60_000],
        ['2', 50_000],
      ]),
    ]);
    const views = new MarketViews(store);
    await views.onApplicationBootstrap();
    const fullReads = jest.spyOn(store, 'readTrades');
    const listed = async () => (await views.tradeList(BTC)).toArray().map(({ id }) => id);
    try {
      expect(await listed()).toEqual(['1', '2']);
      expect(fullReads).toHaveBeenCalledTimes(1);

      // Added after the newest held, one of them at its very time: the tail is enough.
      await store.write([
        tradesWrite(2, [
          ['3', 50_000],
          ['4', 40_000],
        ]),
      ]);
      await eventually(async () => expect(await listed()).toEqual(['1', '2', '3', '4']));
      expect(fullReads).toHaveBeenCalledTimes(1);
      // The oldest gone (the window moved on), one more added.
      await store.trimTrades([BTC], NOW - 60_000);
      await store.write([tradesWrite(3, [['5', 30_000]])]);
      await eventually(async () => expect(await listed()).toEqual(['2', '3', '4', '5']));
      expect(fullReads).toHaveBeenCalledTimes(1);

      // Filled in among the older ones: the list is read again in full.
      await store.write([tradesWrite(4, [['6', 45_000]])]);
      await eventually(async () => expect(await listed()).toEqual(['2', '3', '6', '4', '5']));
      expect(fullReads).toHaveBeenCalledTimes(2);
      expect((await views.tradeList(BTC)).toArray()).toEqual(await store.readTrades(BTC));
    } finally {
      fullReads.mockRestore();
      await views.onApplicationShutdown();
    }
  });
});

describe('MarketViews trade lists held in columns', () => {
  it('hand out lists that stay as they were, and serve the held list while the store fails', async () => {
    const store = new RestartableStore();
    await store.writeCatalog(CATALOG);
    await store.write([
      tradesWrite(1, [
        ['1', 30_000],
        ['2', 20_000],
        ['3', 20_000],
      ]),
    ]);
    const views = new MarketViews(store);
    await views.onApplicationBootstrap();
    const ids = (list: { toArray(): { id: string }[] }): string[] => list.toArray().map(({ id }) => id);
    try {
      const first = await views.tradeList(BTC);
      expect(ids(first)).toEqual(['1', '2', '3']);
      const fullReads = jest.spyOn(store, 'readTrades');
      // Trades of the newest time and after it, the oldest gone: brought up to date in place.
      await store.trimTrades([BTC], NOW - 30_000);
      await store.write([
        tradesWrite(2, [
          ['4', 20_000],
          ['5', 10_000],
        ]),
      ]);
      await eventually(async () => expect(ids(await views.tradeList(BTC))).toEqual(['2', '3', '4', '5']));
      expect(ids(first)).toEqual(['1', '2', '3']);
      expect(fullReads).not.toHaveBeenCalled();
      fullReads.mockRestore();

      const unreachable = () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379'));
      store.readTrades = unreachable;
      store.readTradesFrom = unreachable;
      await store.write([tradesWrite(3, [['6', 5_000]])]);
      await eventually(() => expect(views.head(BTC)?.tradesRevision).toBe(3));
      expect(ids(await views.tradeList(BTC))).toEqual(['2', '3', '4', '5']);
      expect(logged).toEqual([
        `warn ${BTC}: trades served from memory, the store failed: connect ECONNREFUSED 127.0.0.1:6379`,
      ]);
    } finally {
      await views.onApplicationShutdown();
    }
  });
});
