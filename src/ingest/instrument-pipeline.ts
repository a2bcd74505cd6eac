import { BookMessage } from '../market/book-update';
import { BookSynchronizer, BookSyncOptions, ResyncReason, SyncOutcome } from '../market/book-synchronizer';
import { Candle, statsFromCandles } from '../market/candle-stats';
import { LastTrade, lastTradeOf, newestTrade } from '../market/last-trade';
import { MarketInfo } from '../market/market-info';
import { MarketStats } from '../market/market-stats';
import { Trade } from '../market/trade';
import { TradeWindow } from '../market/trade-window';
import { wholeMinutesBefore } from '../store/trade-history';
import {
  InstrumentHead,
  InstrumentWrite,
  PriceLevel,
  TradeFeedState,
  WriteFence,
} from '../store/state-store';
import { BookFeed, BookFeedSubscription } from './feeds/book-feed';

const HOUR_MS = 3_600_000;

/** What a pipeline reports to its owner: metrics and logs. */
export interface PipelineEvents {
  /** The book left `live`; it is rebuilt from the next snapshot. */
  onResync(instrument: string, reason: ResyncReason, detail?: string): void;
  onMalformed(instrument: string, error: Error): void;
  onSnapshotFailed(instrument: string, error: Error): void;
  /** A message of the book or trade feed was applied (the state writer keeps its cadence from here). */
  onMessageApplied(instrument: string): void;
}

export interface PipelineOptions {
  readonly market: MarketInfo;
  readonly bookFeed: BookFeed;
  /**
   * The exchange's REST snapshot of the book: the fallback when the feed gives none, and the periodic
   * check. An aborted signal withdraws the request, waiting or sent.
   */
  readonly restSnapshot: (instrument: string, signal?: AbortSignal) => Promise<BookMessage>;
  readonly tradeFeed: TradeFeedState;
  readonly sync: BookSyncOptions;
  readonly now: () => number;
  readonly events: PipelineEvents;
  /**
   * The first write waits up to this long for a live book (and, with a trade feed, every trade of the
   * last 24 hours), so that an instrument taken over from another writer does not replace the stored
   * state with an empty book, or the stored trades with the few of a subscription's snapshot, while
   * it syncs; 0 writes at once.
   */
  readonly firstWriteWaitMs?: number;
  /** How often a quiet, live book on a connected feed is confirmed current in the store. */
  readonly confirmIntervalMs: number;
}

/**
 * Everything the service knows about one instrument, kept by its single writer: the book and its sync
 * state machine, the 24-hour trade window (or, without a trade feed, candles and the last price), and
 * what changed since the last write. `takeWrite` turns the changes into one atomic store write.
 */
export class InstrumentPipeline {
  readonly instrument: string;
  private readonly sync: BookSynchronizer;
  private readonly window = new TradeWindow();
  private subscription?: BookFeedSubscription;
  private snapshotInFlight = false;
  /** Withdraws the fallback snapshot in flight, which the stream's own snapshot made needless. */
  private fallbackWithdrawal?: AbortController;
  /** The next slice of a snapshot load, due on a later turn of the event loop. */
  private loadTurn?: NodeJS.Immediate;
  private stopped = false;
  private lastState: SyncOutcome['state'] = 'syncing';
  private reportedResyncs = 0;
  private candles: readonly Candle[] = [];
  /** The newest trade of the feed, of any age: the window forgets it after 24 hours. */
  private newestFedTrade?: Trade;
  /** Without a trade feed: Level 1's last traded price and time. */
  private level1LastTrade?: LastTrade;
  private rollingVolume?: string;
  private lastEventAt = 0;
  private confirmedAt = 0;
  /** The book feed delivers: set by its messages, cleared when it is interrupted. */
  private feedUp = false;
  /** Starts from the clock so that it keeps growing across restarts of the service. */
  private tradesRevision: number;
  private newTrades: Trade[] = [];
  /** The UTC hours (their starts) that trades were added to since the last `takeTradeHours`. */
  private addedTradeHours = new Set<number>();
  private expiredBefore?: number;
  /** When the oldest trade held leaves the window (Unix milliseconds); Infinity with none held. */
  private expiryAt = Infinity;
  /** Before this time `tick` has nothing to do (see `tickIfDue`). */
  private wakeAt = 0;
  private changed = true;
  private replaceNeeded = true;
  private readonly createdAt: number;
  private written = false;
  private tradesCaughtUp = false;
  fence?: WriteFence;

  constructor(private readonly options: PipelineOptions) {
    this.instrument = options.market.instrument;
    this.sync = new BookSynchronizer(this.instrument, options.now(), options.sync);
    this.tradesRevision = options.now();
    this.createdAt = options.now();
  }

  get state(): SyncOutcome['state'] {
    return this.sync.state;
  }

  get counters(): BookSynchronizer['counters'] {
    return this.sync.counters;
  }

  get bookVersion(): number {
    return this.sync.book.version;
  }

  get tradeFeed(): TradeFeedState {
    return this.options.tradeFeed;
  }

  get tradeCount(): number {
    return this.window.size;
  }

  /** Unix milliseconds of the last upstream message about the instrument. */
  get lastEventTime(): number {
    return this.lastEventAt;
  }

  /** Unix milliseconds when the book was last known current (see InstrumentHead.confirmedAt). */
  get confirmedTime(): number {
    return this.confirmedAt;
  }

  start(): void {
    this.stopped = false;
    this.wakeAt = 0;
    this.subscription = this.options.bookFeed.open(this.options.market, {
      onMessage: (message) => this.onBookMessage(message),
      onInterrupted: (reason) => {
        this.feedUp = false;
        this.handle(this.sync.reset(reason, this.options.now()));
      },
      onMalformed: (error) => this.options.events.onMalformed(this.instrument, error),
      // Feeds open their streams a few at a time: the wait for the stream's own snapshot starts
      // when it is opened, not when it was queued, or every queued book would fall back to REST.
      onOpened: () => this.sync.streamOpened(this.options.now()),
    });
    // A load that a stop left half done goes on.
    if (this.sync.loadPending) this.scheduleLoadSlice();
  }

  stop(): void {
    this.subscription?.close();
    this.subscription = undefined;
    this.stopped = true;
    clearImmediate(this.loadTurn);
    this.loadTurn = undefined;
    this.fallbackWithdrawal?.abort(new Error('the instrument is no longer ingested here'));
  }

  /**
   * `tick` when something may be due by `now` (on the pipeline's clock): a live, quiet book has
   * nothing to do in most passes, and at thousands of instruments the pass is much of the cost at rest.
   */
  tickIfDue(now: number): void {
    if (now >= this.wakeAt) this.tick();
  }

  /**
   * The passage of time: reorder windows and snapshot waits run out, trades leave the window, and a
   * live book on a connected feed is confirmed current once per confirmation interval.
   */
  tick(): void {
    const now = this.options.now();
    if (this.sync.waitsOnTime) this.handle(this.sync.tick(now));
    if (
      this.feedUp &&
      this.sync.state === 'live' &&
      now - this.confirmedAt >= this.options.confirmIntervalMs
    ) {
      this.confirmedAt = now;
      this.changed = true;
    }
    if (this.expiryAt <= now) {
      const before = this.window.size;
      this.expiredBefore = wholeMinutesBefore(this.window.expire(now));
      if (this.window.size !== before) this.tradesChanged();
      this.windowChanged();
    }
    this.scheduleWake();
  }

  /** Compares the live book with a REST snapshot of the exchange; a mismatch re-syncs the instrument. */
  async verify(): Promise<SyncOutcome | undefined> {
    if (this.sync.state !== 'live' || this.snapshotInFlight || this.sync.loadPending) return undefined;
    const snapshot = await this.options.restSnapshot(this.instrument);
    return this.handle(this.sync.onRestSnapshot(snapshot, this.options.now()));
  }

  addTrades(trades: readonly Trade[]): void {
    this.newestFedTrade = newestTrade(this.newestFedTrade, trades);
    const added = this.window.add(trades, this.options.now());
    this.lastEventAt = this.options.now();
    this.changed = true;
    if (added.length > 0) {
      this.newTrades.push(...added);
      this.noteTradeHours(added);
      this.tradesChanged();
      this.windowChanged();
    }
    this.options.events.onMessageApplied(this.instrument);
  }

  /**
   * The newest trade the feed delivered, while the window holds it: what a (re)subscription's trades
   * must reach back to. Seeded trades do not count, so that the exchange's history is still fetched
   * over any gap the store had.
   */
  newestTradeTime(): number | undefined {
    const newest = this.newestFedTrade;
    return newest && this.window.has(newest.id) ? newest.time : undefined;
  }

  /**
   * The trades the store held when this pipeline took the instrument over: the window starts from them,
   * so that a first write made before the exchange's history is fetched replaces the stored day with
   * that day, not with the few trades fetched so far. Too late once the first write is made.
   */
  seedTrades(trades: readonly Trade[]): void {
    if (!this.seedable || this.window.add(trades, this.options.now()).length === 0) return;
    this.tradesChanged();
    this.windowChanged();
  }

  /** Whether `seedTrades` would still take stored trades: running, and nothing written yet. */
  get seedable(): boolean {
    return !this.stopped && !this.written;
  }

  /** Without a trade feed: the candles of the last 24 hours. */
  setCandles(candles: readonly Candle[]): void {
    this.candles = candles;
    this.changed = true;
  }

  /**
   * Without a trade feed: the exchange's last traded price and its time ("0" and 0 when the market
   * never traded) and rolling 24-hour base volume (Level 1).
   */
  setLevel1(lastPrice: string, lastTradeTime: number, rollingVolume: string, time: number): void {
    this.level1LastTrade = lastPrice === '0' ? undefined : { price: lastPrice, time: lastTradeTime };
    this.rollingVolume = rollingVolume;
    this.lastEventAt = Math.max(this.lastEventAt, time);
    this.changed = true;
  }

  /** The whole book as held now, with its version and sync state: a recording's checkpoint. */
  bookNow(): { version: number; state: SyncOutcome['state']; bids: PriceLevel[]; asks: PriceLevel[] } {
    const book = this.sync.book;
    return {
      version: book.version,
      state: this.sync.state,
      bids: book.levels('bid'),
      asks: book.levels('ask'),
    };
  }

  /** The store may not hold what this pipeline wrote (a failed write, a store that lost its data). */
  replaceOnNextWrite(): void {
    this.replaceNeeded = true;
  }

  /**
   * The write that brings the store up to date, or undefined when nothing changed. Normally only the
   * changed levels and the new trades; the whole state after `replaceOnNextWrite`.
   */
  takeWrite(): InstrumentWrite | undefined {
    if (!this.changed && !this.replaceNeeded) return undefined;
    const now = this.options.now();
    if (!this.written && !this.warmedUp() && now - this.createdAt < (this.options.firstWriteWaitMs ?? 0))
      return undefined;
    this.written = true;
    const book = this.sync.book;
    const changes = book.takeChanges();
    const replace = this.replaceNeeded;
    // A reader may hold the current revision for a list read from a store that has since lost
    // writes (a failover): the rewrite must not announce a revision it already caches.
    if (replace) this.tradesRevision++;
    const head = this.head(now);
    const write: InstrumentWrite = replace
      ? {
          instrument: this.instrument,
          replace,
          head,
          levels: { bids: book.levels('bid'), asks: book.levels('ask') },
          tradesAdded: this.window.trades(),
          fence: this.fence,
        }
      : {
          instrument: this.instrument,
          replace,
          head,
          ...(changes.bids.length + changes.asks.length > 0
            ? { levels: { bids: changes.bids, asks: changes.asks } }
            : {}),
          ...(this.newTrades.length > 0 ? { tradesAdded: this.newTrades } : {}),
          ...(this.expiredBefore !== undefined ? { tradesBefore: this.expiredBefore } : {}),
          fence: this.fence,
        };
    this.newTrades = [];
    this.expiredBefore = undefined;
    this.changed = false;
    this.replaceNeeded = false;
    return write;
  }

  /** The trade feed has delivered every trade of the window: nothing older is still being fetched. */
  markTradesCaughtUp(): void {
    this.tradesCaughtUp = true;
  }

  /** Whether the window holds every trade of its 24 hours: the trade feed caught up once. */
  get tradesComplete(): boolean {
    return this.tradesCaughtUp;
  }

  /**
   * The UTC hours (their starts, Unix milliseconds) that the feed added trades to since the last
   * call, for the bar sealer; trades seeded from the store do not count.
   */
  takeTradeHours(): number[] {
    const hours = [...this.addedTradeHours];
    this.addedTradeHours.clear();
    return hours;
  }

  /** The window's newest `count` trades, oldest first. */
  newestTrades(count: number): Trade[] {
    return this.window.newest(count);
  }

  /** The window's trades with `from <= time < to`, oldest first. */
  tradesBetween(from: number, to: number): Trade[] {
    return this.window.tradesBetween(from, to);
  }

  /** Has what the stored state of a live instrument needs: a live book, and its 24 hours of trades when there is a feed. */
  private warmedUp(): boolean {
    return this.sync.state === 'live' && (this.options.tradeFeed !== 'live' || this.tradesCaughtUp);
  }

  private head(now: number): InstrumentHead {
    const book = this.sync.book;
    return {
      instrument: this.instrument,
      bookVersion: book.version,
      bookUpdatedAt: book.updatedAt,
      syncState: this.sync.state,
      ...optional('bestBid', book.best('bid')),
      ...optional('bestAsk', book.best('ask')),
      stats: this.stats(now),
      ...this.lastTradeField(),
      tradesRevision: this.tradesRevision,
      tradeFeed: this.options.tradeFeed,
      lastEventAt: this.lastEventAt,
      confirmedAt: this.confirmedAt,
    };
  }

  private stats(now: number): MarketStats {
    if (this.options.tradeFeed === 'live') return this.window.stats(now);
    const estimated = statsFromCandles(this.candles, now, this.level1LastTrade?.price);
    // Level 1's rolling volume is the exchange's own 24-hour figure, finer than candle buckets.
    return this.rollingVolume === undefined || estimated.last === '0'
      ? estimated
      : { ...estimated, baseVolume: this.rollingVolume };
  }

  private lastTradeField(): { lastTrade?: LastTrade } {
    const lastTrade =
      this.options.tradeFeed === 'live'
        ? this.newestFedTrade && lastTradeOf(this.newestFedTrade)
        : this.level1LastTrade;
    return lastTrade ? { lastTrade } : {};
  }

  private onBookMessage(message: BookMessage): void {
    const now = this.options.now();
    this.lastEventAt = now;
    this.feedUp = true;
    this.changed = true;
    this.handle(this.sync.onStreamMessage(message, now));
    if (this.sync.state === 'live') this.confirmedAt = now;
    this.options.events.onMessageApplied(this.instrument);
  }

  private handle(outcome: SyncOutcome): SyncOutcome {
    if (outcome.bookChanged) this.changed = true;
    // Counted by the synchronizer: a book healed within the same call (from a REST snapshot in hand)
    // left live all the same, although the outcome says live.
    if (this.sync.resyncCount !== this.reportedResyncs) {
      this.reportedResyncs = this.sync.resyncCount;
      this.options.events.onResync(this.instrument, outcome.reason as ResyncReason, outcome.detail);
    }
    if (this.lastState !== outcome.state) this.changed = true;
    this.lastState = outcome.state;
    // Live from the stream while the fallback still waits for the rate-limited REST: its permit is
    // better spent on another book.
    if (outcome.state === 'live') this.fallbackWithdrawal?.abort(new Error('the stream made the book live'));
    if (outcome.action === 'reopen-stream') {
      this.subscription?.restart();
      this.handle(this.sync.reset(`reopened after ${outcome.reason}`, this.options.now()));
    } else if (outcome.action === 'request-snapshot') {
      void this.fetchSnapshot();
    }
    if (this.sync.loadPending) this.scheduleLoadSlice();
    this.scheduleWake();
    return outcome;
  }

  /** The window's oldest trade changed: so may the time it leaves. */
  private windowChanged(): void {
    this.expiryAt = this.window.nextExpiry() ?? Infinity;
    this.scheduleWake();
  }

  /**
   * The earliest time `tick` could do anything: at once while the book waits on time, else the next
   * confirmation of a live book on a connected feed or the next trade to leave the window.
   */
  private scheduleWake(): void {
    if (this.sync.waitsOnTime) {
      this.wakeAt = 0;
      return;
    }
    const confirmAt =
      this.feedUp && this.sync.state === 'live'
        ? this.confirmedAt + this.options.confirmIntervalMs
        : Infinity;
    this.wakeAt = Math.min(confirmAt, this.expiryAt);
  }

  /**
   * A deep snapshot loads one slice per turn of the event loop, so that other instruments' messages,
   * the writer and the API run in between rather than wait for the whole of it.
   */
  private scheduleLoadSlice(): void {
    if (this.loadTurn !== undefined || this.stopped) return;
    this.loadTurn = setImmediate(() => {
      this.loadTurn = undefined;
      this.handle(this.sync.continueLoad(this.options.now()));
    });
  }

  private async fetchSnapshot(): Promise<void> {
    if (this.snapshotInFlight) return;
    this.snapshotInFlight = true;
    const withdrawal = new AbortController();
    this.fallbackWithdrawal = withdrawal;
    try {
      const snapshot = await this.options.restSnapshot(this.instrument, withdrawal.signal);
      this.handle(this.sync.onRestSnapshot(snapshot, this.options.now()));
    } catch (error) {
      if (!withdrawal.signal.aborted) this.options.events.onSnapshotFailed(this.instrument, error as Error);
    } finally {
      this.snapshotInFlight = false;
      this.fallbackWithdrawal = undefined;
    }
  }

  private noteTradeHours(added: readonly Trade[]): void {
    let hour = NaN;
    for (const trade of added) {
      const start = trade.time - (trade.time % HOUR_MS);
      if (start !== hour) this.addedTradeHours.add((hour = start));
    }
  }

  private tradesChanged(): void {
    this.tradesRevision++;
    this.changed = true;
  }
}

function optional<K extends string>(key: K, level: PriceLevel | undefined): Partial<Record<K, PriceLevel>> {
  return level ? ({ [key]: level } as Record<K, PriceLevel>) : {};
}
