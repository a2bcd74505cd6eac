import { Logger } from '@nestjs/common';
import { MarketInfo } from '../../market/market-info';
import { BookChannelFeed } from '../../market/stream/book-channel-feed';
import { bookChannelName } from '../../market/stream/stream-channel';
import { BookView, InstrumentChange, InstrumentHead } from '../../store/state-store';
import { BookEventSink, BookStore, MarketBook, MarketBookOwner } from './market-book';

/** While a book cannot be read, it is tried again this often. */
const RETRY_MS = 1_000;

export interface FollowedBook {
  readonly feed: BookChannelFeed;
  /** Stops delivering to the sink; the book stays held until the process holds too many levels. */
  release(): void;
}

/** A thousand books of 500 levels stay in memory; books asked for less often are read from the store again. */
export const BOOK_CACHE_MAX_LEVELS = 500_000;

/**
 * The books of an API process, one `MarketBook` per market a reader asked for, all fed from the one
 * subscription of the read model (`MarketViews`). They are let go least recently used first once
 * their levels pass `maxLevels`: thousands of deep books would otherwise all stay in memory once each
 * was asked for. A streamed book and the book just used always stay, however deep.
 */
export class MarketBooks implements MarketBookOwner {
  private readonly logger = new Logger(MarketBooks.name);
  /** In order of use, least recent first. */
  private readonly books = new Map<string, MarketBook>();
  private totalLevels = 0;

  constructor(
    private readonly store: BookStore,
    private readonly maxLevels: number,
  ) {}

  /** How many markets' books are followed. */
  get size(): number {
    let size = 0;
    for (const book of this.books.values()) if (book.follows) size++;
    return size;
  }

  /** How many markets' books a stream connection reads. */
  get streamedCount(): number {
    let count = 0;
    for (const book of this.books.values()) if (book.streamed) count++;
    return count;
  }

  /** How many levels the followed books hold in all. */
  get heldLevels(): number {
    return this.totalLevels;
  }

  /** Whether a book served is one the store no longer holds. */
  get anyLost(): boolean {
    for (const book of this.books.values()) if (book.lost) return true;
    return false;
  }

  /** The market's book for the stream: every event goes to `sink` until released. */
  follow(market: MarketInfo, sink: BookEventSink): FollowedBook {
    const book = this.bookOf(market);
    const stop = book.stream(sink);
    this.used(book);
    return {
      feed: book.feed,
      release: () => {
        stop();
        this.trim(undefined);
      },
    };
  }

  /** The market's full book (see `MarketBook.view`), which is now the most recently used. */
  view(market: MarketInfo, version: number | undefined): Promise<BookView | undefined> {
    const book = this.bookOf(market);
    const view = book.view(version);
    this.used(book);
    return view;
  }

  /** The held book when it is live and at `version`; the order of use stays as it is. */
  currentView(instrument: string, version: number | undefined): BookView | undefined {
    return this.books.get(instrument)?.currentView(version);
  }

  /** The book as last served or held, whatever its version; nothing starts. */
  lastView(instrument: string): BookView | undefined {
    return this.books.get(instrument)?.lastView();
  }

  /** Hands a written change to the market's book, if one is held. */
  apply(change: InstrumentChange): void {
    this.books.get(change.instrument)?.apply(change);
  }

  /** The store lost its contents: every followed book reads the whole book once. */
  reset(): void {
    for (const book of this.books.values()) book.reset();
  }

  /** The periodic check of each followed book against the stored heads, and the retry of failed reads. */
  check(heads: ReadonlyMap<string, InstrumentHead>): void {
    for (const [instrument, book] of this.books) book.check(heads.get(instrument));
  }

  retryFailed(): void {
    for (const book of this.books.values()) book.retry(RETRY_MS);
  }

  /** Lets go of the books of markets no longer listed. */
  keepOnly(listed: (instrument: string) => boolean): void {
    for (const [instrument, book] of this.books)
      if (!listed(instrument) && !book.streamed) {
        book.release();
        this.books.delete(instrument);
      }
  }

  resized(_book: MarketBook, delta: number): void {
    this.totalLevels += delta;
    if (delta > 0) this.trim(_book);
  }

  readFailed(instrument: string, error: unknown): void {
    this.logger.warn(`${instrument}: book unreadable, stream resyncing: ${String(error)}`);
  }

  readRecovered(instrument: string): void {
    this.logger.log(`${instrument}: store readable again`);
  }

  private bookOf(market: MarketInfo): MarketBook {
    const { instrument } = market;
    let book = this.books.get(instrument);
    if (!book) {
      book = new MarketBook(instrument, bookChannelName(instrument), market, this.store, this);
      this.books.set(instrument, book);
    }
    return book;
  }

  private used(book: MarketBook): void {
    this.books.delete(book.instrument);
    this.books.set(book.instrument, book);
    this.trim(book);
  }

  /** Lets go of the least recently used books, never a streamed one nor `keep`, until under the cap. */
  private trim(keep: MarketBook | undefined): void {
    if (this.totalLevels <= this.maxLevels) return;
    for (const book of this.books.values()) {
      if (this.totalLevels <= this.maxLevels) return;
      if (book !== keep && !book.streamed && book.follows) book.release();
    }
  }
}
