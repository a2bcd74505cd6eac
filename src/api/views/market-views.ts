import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { normalizeInstrument } from '../../market/instrument-name';
import { AssetInfo, MarketCatalog, MarketInfo } from '../../market/market-info';
import { MarketStats } from '../../market/market-stats';
import { TradeColumns, TradeRows } from '../../market/trade-columns';
import { DAY_MS } from '../../market/trade-window';
import { BookView, InstrumentChange, InstrumentHead, StateStore } from '../../store/state-store';
import { STATE_STORE } from '../../store/store.module';
import { ListenerSet } from '../../store/listener-set';
import { appendTail } from '../../store/trade-tail';
import { ApiError } from '../http/api-error';
import { withHeldTrades } from './held-trades';
import { MarketBooks } from './market-books';
import { SingleFlight } from './single-flight';

/**
 * Listing listeners hear of changes this long after the first of a batch: a writer's flush announces
 * all its instruments at once, and one call serves them all. Short, since every millisecond here is a
 * millisecond of staleness on the stream's ticker.
 */
const NOTICE_BATCH_MS = 5;
/** How often the full reload is considered (the catalogue and every head). */
const TICK_MS = 250;
/** Everything is reloaded this often, in case a change notice was lost (pub/sub is fire-and-forget). */
const FULL_RELOAD_MS = 5_000;
/**
 * A trade list is brought up to date from its newest trade (see appendTail), and read whole again
 * this often all the same: a day of trades is a third of a second of the API's and Redis' time.
 */
const TRADES_FULL_READ_MS = 60_000;

interface CachedTrades {
  /** Undefined for a list read while the instrument's head was unknown: held to fall back on, never current. */
  readonly revision: number | undefined;
  /** Brought up to date in place; what is handed out is a slice, which stays as it was. */
  readonly trades: TradeColumns;
  /** When the whole list was last read (`performance.now()`), rather than brought up to date from its newest trade. */
  readonly readInFullAt: number;
}

/**
 * The API's read model of the stored state, one per process: the catalogue and every instrument's
 * head, kept current from the store's one change subscription (each write's notice carries its head
 * and levels), the books readers ask for (`MarketBooks`, fed from the same notices, which every reader
 * uses: the listing endpoints, the aggregator books, the listing health, the console and the stream),
 * and trade lists fetched once per revision. A request never waits on the store when nothing changed;
 * while the store is unreachable the last good state is served and `stale` says so.
 */
@Injectable()
export class MarketViews implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(MarketViews.name);
  private catalog?: MarketCatalog;
  private listed: readonly MarketInfo[] = [];
  private readonly byName = new Map<string, MarketInfo>();
  private readonly assetsBySymbol = new Map<string, AssetInfo>();
  private readonly heads = new Map<string, InstrumentHead>();
  /** Instruments whose change came during the full read of heads under way: their read head may be older. */
  private heardDuringRead?: Set<string>;
  private catalogDirty = false;
  private generation = 0;
  private emittedGeneration = 0;
  /** The books of the process, one per market a reader asked for. */
  readonly books: MarketBooks;
  private readonly trades = new Map<string, CachedTrades>();
  private readonly tradeLoads = new SingleFlight<string, TradeRows>();
  private timer?: NodeJS.Timeout;
  private noticeTimer?: NodeJS.Timeout;
  /** `performance.now()`, as every age this class keeps: a wall clock may step back. */
  private lastFullReload = -Infinity;
  private refreshing?: Promise<void>;
  private refreshAgain = false;
  private unsubscribe?: () => void;
  private stopResets?: () => void;
  private storeFailing = false;
  /** Instruments whose head the store no longer holds while it is served from memory. */
  private readonly lost = new Set<string>();
  /** Instruments whose trade list is served with trades the store lost (see withHeldTrades). */
  private readonly tradesLost = new Set<string>();
  private readonly listingListeners = new ListenerSet<void>((error) =>
    this.logger.error(`a listing listener failed: ${String(error)}`),
  );

  constructor(
    @Inject(STATE_STORE) private readonly store: StateStore,
    /** Levels of full books kept in memory; unbounded for a test's own views. */
    maxBookLevels = Number.POSITIVE_INFINITY,
  ) {
    this.books = new MarketBooks(store, maxBookLevels);
  }

  async onApplicationBootstrap(): Promise<void> {
    this.unsubscribe = this.store.onChange((notice) => {
      if (notice.kind === 'catalog') this.catalogDirty = true;
      else this.useChange(notice.change);
      this.noticeTimer ??= setTimeout(() => {
        this.noticeTimer = undefined;
        this.startRefresh();
      }, NOTICE_BATCH_MS);
    });
    this.stopResets = this.store.onReset(() => this.books.reset());
    await this.refresh();
    this.timer = setInterval(() => {
      if (performance.now() - this.lastFullReload >= FULL_RELOAD_MS || this.storeFailing) this.startRefresh();
      this.books.retryFailed();
    }, TICK_MS);
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    clearTimeout(this.noticeTimer);
    this.unsubscribe?.();
    this.stopResets?.();
    await this.refreshing;
  }

  /** True once a catalogue has been loaded. */
  get ready(): boolean {
    return this.catalog !== undefined;
  }

  /** True while the store cannot be read: what is served is the last good state. */
  get stale(): boolean {
    return this.storeFailing;
  }

  /**
   * True while what is served is not what the store holds: it cannot be read, or it lost state (a
   * Redis restarted empty, a promoted replica that was behind) that the writers have not put back yet.
   */
  get servesLastGood(): boolean {
    return this.storeFailing || this.lost.size > 0 || this.tradesLost.size > 0 || this.books.anyLost;
  }

  /** Grows whenever a listed figure (catalogue, best prices, statistics, sync state) changes. */
  get listingGeneration(): number {
    return this.generation;
  }

  /** Called after each refresh that changed a listed figure. */
  onListingChange(listener: () => void): () => void {
    return this.listingListeners.add(listener);
  }

  /** Listed markets (not hidden), sorted by instrument. */
  markets(): readonly MarketInfo[] {
    return this.listed;
  }

  assets(): MarketCatalog['assets'] {
    return this.catalog?.assets ?? [];
  }

  /** The name of an asset (upper-case symbol), the symbol itself when the catalogue has none. */
  assetName(symbol: string): string {
    return this.assetsBySymbol.get(symbol)?.name ?? symbol;
  }

  /** What the catalogue says about an asset (upper-case symbol). */
  asset(symbol: string): AssetInfo | undefined {
    return this.assetsBySymbol.get(symbol);
  }

  catalogRefreshedAt(): number {
    return this.catalog?.refreshedAt ?? 0;
  }

  /** The stored catalogue is the built-in sandbox exchange's: every figure served is simulated. */
  get sandbox(): boolean {
    return this.catalog?.sandbox === true;
  }

  /** The listed market a path or query names, in any letter case, with `_` or `-`. */
  find(name: string): MarketInfo | undefined {
    return this.byName.get(normalizeInstrument(name));
  }

  head(instrument: string): InstrumentHead | undefined {
    return this.heads.get(instrument);
  }

  /**
   * The best bid and ask as a book of one level a side, from the head: written with the levels in one
   * step, its best levels are the book's at its version, and it is kept current by every change
   * notice, where a full view of the book is built again at most every BOOK_VIEW_REFRESH_MS.
   */
  topOfBook(instrument: string): BookView | undefined {
    const head = this.heads.get(instrument);
    if (!head) return undefined;
    return {
      instrument,
      version: head.bookVersion,
      updatedAt: head.bookUpdatedAt,
      syncState: head.syncState,
      bids: head.bestBid ? [head.bestBid] : [],
      asks: head.bestAsk ? [head.bestAsk] : [],
    };
  }

  /** The full book of a listed market, from its one held book (see `MarketBook.view`). */
  async book(instrument: string): Promise<BookView | undefined> {
    const market = this.byName.get(instrument);
    if (!market) return undefined;
    try {
      return await this.books.view(market, this.heads.get(instrument)?.bookVersion);
    } catch (error) {
      throw storeUnavailable(instrument, error);
    }
  }

  /**
   * The full book for a one-off look (all books in turn, as the listing health reads them), kept
   * nowhere: the held book when it is current, the store's otherwise, the held one if the store fails.
   */
  async bookOnce(instrument: string): Promise<BookView | undefined> {
    const version = this.heads.get(instrument)?.bookVersion;
    const current = this.books.currentView(instrument, version);
    if (current) return current;
    try {
      return await this.store.readBook(instrument);
    } catch (error) {
      const held = this.books.lastView(instrument);
      if (!held) throw storeUnavailable(instrument, error);
      return held;
    }
  }

  /**
   * The stored trades, oldest first, fetched again only when their revision moved: the trades
   * since the newest held, when the rest is still what the store holds (see appendTail), and all of
   * them otherwise and at least every TRADES_FULL_READ_MS; a trade held that the store lost is kept
   * while it is in the window (see withHeldTrades). Held in columns (see TradeColumns).
   */
  async tradeList(instrument: string): Promise<TradeRows> {
    const cached = this.trades.get(instrument);
    const revision = this.heads.get(instrument)?.tradesRevision;
    if (cached && revision !== undefined && cached.revision === revision) return cached.trades.slice();
    try {
      return await this.tradeLoads.run(instrument, async () => {
        const readAt = performance.now();
        if (cached && cached.trades.length > 0 && readAt - cached.readInFullAt < TRADES_FULL_READ_MS) {
          const tail = await this.store.readTradesFrom(
            instrument,
            cached.trades.timeAt(cached.trades.length - 1),
          );
          if (appendTail(cached.trades, tail)) {
            // Every trade held is stored again: the tail's count adds up to the copy's.
            this.noteTradesLost(instrument, 0);
            this.trades.set(instrument, { ...cached, revision });
            return cached.trades.slice();
          }
        }
        const stored = await this.store.readTrades(instrument);
        const kept = cached && withHeldTrades(cached.trades, stored, Date.now() - DAY_MS);
        this.noteTradesLost(instrument, kept ? kept.length - stored.length : 0);
        const trades = TradeColumns.of(kept ?? stored);
        this.trades.set(instrument, { revision, trades, readInFullAt: readAt });
        return trades.slice();
      });
    } catch (error) {
      if (!cached) throw storeUnavailable(instrument, error);
      this.logger.warn(
        `${instrument}: trades served from memory, the store failed: ${(error as Error).message}`,
      );
      return cached.trades.slice();
    }
  }

  private noteTradesLost(instrument: string, missing: number): void {
    if (missing > 0 && !this.tradesLost.has(instrument))
      this.logger.warn(
        `${instrument}: the store lacks ${missing} trade(s) served before, served from memory until it holds them again`,
      );
    else if (missing === 0 && this.tradesLost.has(instrument))
      this.logger.log(`${instrument}: the store holds every trade served again`);
    if (missing > 0) this.tradesLost.add(instrument);
    else this.tradesLost.delete(instrument);
  }

  /**
   * Runs a refresh, or, when one is running, one more after it: notices that came in during a read
   * of the store must not wait for the next notice to be applied.
   */
  private startRefresh(): void {
    if (this.refreshing) {
      this.refreshAgain = true;
      return;
    }
    this.refreshing = this.refresh().finally(() => {
      this.refreshing = undefined;
      if (!this.refreshAgain) return;
      this.refreshAgain = false;
      this.startRefresh();
    });
  }

  private async refresh(): Promise<void> {
    await this.readStore();
    if (this.generation !== this.emittedGeneration) {
      this.emittedGeneration = this.generation;
      this.listingListeners.emit();
    }
    // Read again once their writers moved on, asked for or not: until then every answer says stale.
    for (const instrument of this.tradesLost) void this.tradeList(instrument).catch(() => undefined);
  }

  private async readStore(): Promise<void> {
    const now = performance.now();
    const full = now - this.lastFullReload >= FULL_RELOAD_MS;
    try {
      if (full || this.catalogDirty || !this.catalog) {
        this.catalogDirty = false;
        const catalog = await this.store.readCatalog();
        if (catalog && catalog.refreshedAt !== this.catalog?.refreshedAt) this.useCatalog(catalog);
      }
      if (full) {
        const names = this.listed.map((market) => market.instrument);
        this.heardDuringRead = new Set();
        const heads =
          names.length > 0 ? await this.store.readHeads(names) : new Map<string, InstrumentHead>();
        this.useHeads(names, heads);
        this.books.check(heads);
        this.lastFullReload = now;
      }
      if (this.storeFailing) this.logger.log('store reachable again');
      this.storeFailing = false;
    } catch (error) {
      this.heardDuringRead = undefined;
      if (!this.storeFailing)
        this.logger.warn(`store unreachable, serving the last good state: ${(error as Error).message}`);
      this.storeFailing = true;
      this.lastFullReload = -Infinity;
    }
  }

  private useCatalog(catalog: MarketCatalog): void {
    this.catalog = catalog;
    this.listed = catalog.markets
      .filter((market) => !market.hidden)
      .sort((a, b) => (a.instrument < b.instrument ? -1 : 1));
    this.byName.clear();
    for (const market of this.listed) this.byName.set(market.instrument, market);
    this.assetsBySymbol.clear();
    for (const asset of catalog.assets) this.assetsBySymbol.set(asset.symbol, asset);
    for (const instrument of this.heads.keys())
      if (!this.byName.has(instrument)) {
        this.heads.delete(instrument);
        this.lost.delete(instrument);
        this.tradesLost.delete(instrument);
      }
    this.books.keepOnly((instrument) => this.byName.has(instrument));
    this.generation++;
  }

  /** A written change, as the store announced it: the head it left, and the levels for the held book. */
  private useChange(change: InstrumentChange): void {
    const { instrument, head } = change;
    if (!this.byName.has(instrument)) return;
    this.heardDuringRead?.add(instrument);
    this.lost.delete(instrument);
    const previous = this.heads.get(instrument);
    this.heads.set(instrument, head);
    if (!previous || listingFiguresDiffer(previous, head)) this.generation++;
    this.books.apply(change);
  }

  private useHeads(names: readonly string[], heads: ReadonlyMap<string, InstrumentHead>): void {
    // A change heard during the read left a head at least as new as the one read.
    const heard = this.heardDuringRead ?? new Set<string>();
    this.heardDuringRead = undefined;
    // A head held but no longer stored stays served until its writer puts it back.
    for (const instrument of names) {
      if (heard.has(instrument)) continue;
      if (heads.has(instrument)) this.lost.delete(instrument);
      else if (this.heads.has(instrument)) this.lost.add(instrument);
    }
    for (const [instrument, head] of heads) {
      if (!this.byName.has(instrument) || heard.has(instrument)) continue;
      const previous = this.heads.get(instrument);
      this.heads.set(instrument, head);
      if (!previous || listingFiguresDiffer(previous, head)) this.generation++;
    }
  }
}

/** Whether a head change alters what the listing endpoints publish (not just its freshness). */
function listingFiguresDiffer(a: InstrumentHead, b: InstrumentHead): boolean {
  return (
    a.syncState !== b.syncState ||
    a.bestBid?.[0] !== b.bestBid?.[0] ||
    a.bestAsk?.[0] !== b.bestAsk?.[0] ||
    a.lastTrade?.price !== b.lastTrade?.price ||
    statsDiffer(a.stats, b.stats)
  );
}

function statsDiffer(a: MarketStats, b: MarketStats): boolean {
  return (
    a.last !== b.last ||
    a.open !== b.open ||
    a.high !== b.high ||
    a.low !== b.low ||
    a.baseVolume !== b.baseVolume ||
    a.quoteVolume !== b.quoteVolume ||
    a.tradeCount !== b.tradeCount ||
    a.source !== b.source
  );
}

/**
 * The store failed and nothing of the instrument is held in memory yet: the client may retry, so a
 * 503 (the store's own message is logged, never sent).
 */
function storeUnavailable(instrument: string, error: unknown): ApiError {
  new Logger(MarketViews.name).warn(`${instrument}: the store failed: ${(error as Error).message}`);
  return ApiError.unavailable('store_unavailable', 'the market data store cannot be reached; retry shortly');
}
