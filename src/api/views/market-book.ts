import { BookChannelEvent } from '../../market/stream/book-channel-event';
import { BookChannelFeed } from '../../market/stream/book-channel-feed';
import { MarketScales } from '../../market/stream/published-level';
import { BookView, InstrumentChange, InstrumentHead, StateStore } from '../../store/state-store';

export type BookEventSink = (event: BookChannelEvent) => void;

export type BookStore = Pick<StateStore, 'readBook'>;

/**
 * A view built from the held book is built again at most this often, however fast its version moves:
 * what `/orderbook` serves is then at most this stale, as when it was read from the store.
 */
export const BOOK_VIEW_REFRESH_MS = 50;

/** What a market's book tells the collection that holds it. */
export interface MarketBookOwner {
  /** The held levels changed by `delta` (both sides). */
  resized(book: MarketBook, delta: number): void;
  /** A read of the store failed (the first of a spell) or succeeded again. */
  readFailed(instrument: string, error: unknown): void;
  readRecovered(instrument: string): void;
}

/**
 * The one book of one market an API process holds, for every reader: `/orderbook`, the aggregator
 * books, the listing health, the console and the stream's connections. It follows the store's changes
 * of the market (each write's levels, with the version before it) once a reader asked for it, and has
 * one way back to the stored book: a reset reads the whole book once. A reset comes from a change that
 * does not follow on from the held book (a gap, a version jump, the store held no book before), from
 * the store losing its contents (a restart, a failover), and from a check that a stored version seen
 * seconds ago never reached the book. While the stored book is not live the stream says resyncing and
 * `/orderbook` serves the stored book as read, again at most once per version.
 */
export class MarketBook {
  /** The held book; live while it equals the stored one and that is live. */
  readonly feed: BookChannelFeed;
  private readonly sinks = new Set<BookEventSink>();
  private following = false;
  private reading?: Promise<void>;
  private readAgain = false;
  /** Changes that came during the read under way. */
  private held?: InstrumentChange[];
  private failing = false;
  /** Ages here are read off the monotonic clock (`performance.now()`): a wall clock may step back. */
  private lastReadAt = -Infinity;
  /** A stored version the last check found ahead of the book: it must have come by the next check. */
  private expected?: number;
  /** The view last built from the live book. */
  private liveView?: { readonly view: BookView; readonly builtAt: number };
  /** The book as last read while the stored one was not live, or before the store lost it. */
  private storedView?: { readonly view: BookView; readonly fetchedAt: number };
  private storeLostBook = false;
  private heldLevels = 0;

  constructor(
    readonly instrument: string,
    channel: string,
    scales: MarketScales,
    private readonly store: BookStore,
    private readonly owner: MarketBookOwner,
  ) {
    this.feed = new BookChannelFeed(channel, scales);
  }

  /** Whether the book follows the store's changes. */
  get follows(): boolean {
    return this.following;
  }

  /** Whether a stream connection reads the book: then it is never let go. */
  get streamed(): boolean {
    return this.sinks.size > 0;
  }

  /** How many levels are held, both sides. */
  get levels(): number {
    return this.heldLevels;
  }

  /** True while the store no longer holds the book served (it lost its contents). */
  get lost(): boolean {
    return this.storeLostBook;
  }

  /** True while the last read of the store failed; it is tried again (`retry`). */
  get readFailing(): boolean {
    return this.failing;
  }

  /** Delivers every event of the stream to `sink` until the returned function is called. */
  stream(sink: BookEventSink): () => void {
    this.sinks.add(sink);
    this.follow();
    return () => this.sinks.delete(sink);
  }

  /**
   * The full book, in canonical decimals: the held one while live; otherwise the store's, read again
   * only when its version moved (`version`: the head's) and at most every BOOK_VIEW_REFRESH_MS. What was
   * served before is served while the store fails or lost the book; undefined when nothing is known.
   * Rejects when the store fails and nothing was served before.
   */
  async view(version: number | undefined): Promise<BookView | undefined> {
    this.follow();
    const held = this.heldView();
    if (held) return held;
    const stored = this.storedView;
    const fresh =
      stored &&
      (stored.view.version === version || performance.now() - stored.fetchedAt < BOOK_VIEW_REFRESH_MS);
    if (fresh && !this.reading) return stored.view;
    try {
      // A read under way (the first, or a reset's) serves this request too.
      await (this.reading ?? this.read());
    } catch (error) {
      const last = this.storedView?.view ?? this.liveView?.view;
      if (last) return last;
      throw error;
    }
    return this.heldView() ?? this.storedView?.view ?? this.liveView?.view;
  }

  /** The held book as a view when it is live and at `version`, else undefined; nothing starts. */
  currentView(version: number | undefined): BookView | undefined {
    if (!this.feed.live || this.feed.version !== version) return undefined;
    return this.heldView();
  }

  /** The book as last served or held, whatever its version; nothing starts. */
  lastView(): BookView | undefined {
    return this.heldView() ?? this.storedView?.view ?? this.liveView?.view;
  }

  /** Applies one written change; one that does not follow on from the held book starts a reset. */
  apply(change: InstrumentChange): void {
    if (!this.following) return;
    if (this.held) {
      this.held.push(change);
      return;
    }
    const { head, fromVersion, bids, asks } = change;
    if (head.syncState !== 'live') return this.suspend();
    const book = { version: head.bookVersion, time: head.bookUpdatedAt, bids, asks };
    if (change.replace) {
      // The store held no book before (it lost its contents): readers hear so before the new one.
      if (fromVersion === undefined) this.suspend();
      this.storeLostBook = false;
      this.emit(this.feed.replace(book));
      return this.noteLevels();
    }
    if (fromVersion === undefined) this.suspend();
    else if (this.feed.live) this.emit(this.feed.apply({ ...book, fromVersion }, this.streamed));
    this.noteLevels();
    if (!this.feed.live) this.reset();
  }

  /** The store lost its contents, or the book missed changes: the whole book is read once. */
  reset(): void {
    if (!this.following) return;
    this.suspend();
    this.startRead();
  }

  /**
   * The periodic check against the stored head: a version found ahead of the book at the previous
   * check that has not reached it since means a change was lost, as does a live head while the book
   * waits for one; either reads the whole book.
   */
  check(head: InstrumentHead | undefined): void {
    if (!this.following || this.reading) return;
    const expected = this.expected;
    this.expected = head?.syncState === 'live' ? head.bookVersion : undefined;
    if (head?.syncState !== 'live') return;
    // The read alone (no suspension first): the stream's readers get the book whole when it comes.
    if (!this.feed.live || (expected !== undefined && this.feed.version < expected)) this.startRead();
  }

  /** Reads again after a failed read, at most every `afterMs`. */
  retry(afterMs: number): void {
    if (this.following && this.failing && performance.now() - this.lastReadAt >= afterMs) this.startRead();
  }

  /** Stops following and lets go of the levels (nobody streams it, and the process holds too many). */
  release(): void {
    if (this.streamed) return;
    this.following = false;
    this.expected = undefined;
    this.liveView = undefined;
    this.storedView = undefined;
    this.feed.replace({ version: 0, time: 0, bids: [], asks: [] });
    this.feed.suspend();
    this.noteLevels();
  }

  private follow(): void {
    if (this.following) return;
    this.following = true;
    this.startRead();
  }

  private heldView(): BookView | undefined {
    if (!this.feed.live) return undefined;
    const cached = this.liveView;
    if (
      cached &&
      (cached.view.version === this.feed.version || performance.now() - cached.builtAt < BOOK_VIEW_REFRESH_MS)
    )
      return cached.view;
    const view = this.builtView();
    this.liveView = { view, builtAt: performance.now() };
    return view;
  }

  /** The held levels as a view, live or not. */
  private builtView(): BookView {
    return {
      instrument: this.instrument,
      version: this.feed.version,
      updatedAt: this.feed.time,
      syncState: 'live',
      bids: this.feed.levels('bid'),
      asks: this.feed.levels('ask'),
    };
  }

  private startRead(): void {
    this.read().catch(() => undefined);
  }

  /** One read at a time; a read asked for during one runs once more after it. */
  private read(): Promise<void> {
    if (this.reading) {
      this.readAgain = true;
      return this.reading;
    }
    this.held = [];
    this.lastReadAt = performance.now();
    const reading = this.readOnce().finally(() => {
      this.reading = undefined;
      const held = this.held ?? [];
      this.held = undefined;
      for (const change of held) this.apply(change);
      if (!this.readAgain) return;
      this.readAgain = false;
      this.startRead();
    });
    this.reading = reading;
    return reading;
  }

  private async readOnce(): Promise<void> {
    let view: BookView | undefined;
    try {
      view = await this.store.readBook(this.instrument);
    } catch (error) {
      this.suspend();
      if (!this.failing) this.owner.readFailed(this.instrument, error);
      this.failing = true;
      throw error;
    }
    if (this.failing) this.owner.readRecovered(this.instrument);
    this.failing = false;
    if (this.following) this.use(view);
  }

  private use(view: BookView | undefined): void {
    this.expected = undefined;
    if (view === undefined) {
      // A store that lost its contents has no book until the writer puts it back: the last one read
      // is served meanwhile, as while the store is unreachable.
      const last = newer(this.feed.version > 0 ? this.builtView() : undefined, this.storedView?.view);
      if (last) {
        this.storeLostBook = true;
        this.storedView = { view: last, fetchedAt: performance.now() };
      }
      return this.suspend();
    }
    this.storeLostBook = false;
    if (view.syncState !== 'live') {
      this.storedView = { view, fetchedAt: performance.now() };
      return this.suspend();
    }
    this.storedView = undefined;
    if (this.feed.live && view.version === this.feed.version) return;
    this.emit(
      this.feed.replace({ version: view.version, time: view.updatedAt, bids: view.bids, asks: view.asks }),
    );
    this.noteLevels();
  }

  private suspend(): void {
    this.emit(this.feed.suspend());
  }

  private emit(event: BookChannelEvent | undefined): void {
    if (event === undefined) return;
    for (const sink of this.sinks) sink(event);
  }

  private noteLevels(): void {
    const levels = this.following ? this.feed.levelCount : 0;
    const delta = levels - this.heldLevels;
    this.heldLevels = levels;
    if (delta !== 0) this.owner.resized(this, delta);
  }
}

function newer(a: BookView | undefined, b: BookView | undefined): BookView | undefined {
  if (!a || !b) return a ?? b;
  return a.version >= b.version ? a : b;
}
