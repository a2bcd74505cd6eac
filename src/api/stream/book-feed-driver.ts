import { Logger } from '@nestjs/common';
import { BookChannelEvent } from '../../market/stream/book-channel-event';
import { BookChannelFeed } from '../../market/stream/book-channel-feed';
import { InstrumentChange, BookView, StateStore } from '../../store/state-store';
import { StoreFollower } from './store-follower';

export type BookEventSink = (event: BookChannelEvent) => void;

export type BookStore = Pick<StateStore, 'readBook' | 'readHeads' | 'followInstrument' | 'onReset'>;

/**
 * Keeps one instrument's `BookChannelFeed` equal to the stored book while it is started. It follows
 * the store's book changes (each write's levels, with the version before it) and reads the whole book
 * only to begin, after a change that does not follow on from the feed (the feed says resyncing until
 * then), after the store lost its contents, and when the stored version a check of the head found a
 * few seconds ago has not reached the feed since. It suspends the feed whenever the stored book is not
 * live or cannot be read.
 */
export class BookFeedDriver {
  private readonly logger = new Logger(BookFeedDriver.name);
  private readonly follower: StoreFollower;
  /** A stored version the last check found ahead of the feed: it must have come by the next check. */
  private expected?: number;

  constructor(
    readonly feed: BookChannelFeed,
    private readonly instrument: string,
    private readonly store: BookStore,
    private readonly deliver: BookEventSink,
  ) {
    this.follower = new StoreFollower(store, this.instrument, {
      change: (change) => this.onChange(change),
      reset: () => this.suspend(),
      read: () => this.read(),
      failed: (error) =>
        this.logger.warn(`${this.instrument}: book unreadable, stream resyncing: ${String(error)}`),
      recovered: () => this.logger.log(`${this.instrument}: store readable again`),
    });
  }

  start(): void {
    this.follower.start();
  }

  stop(): void {
    this.follower.stop();
  }

  /** Checks now that the stored book's changes came, as is done every few seconds anyway. */
  check(): void {
    this.follower.refresh();
  }

  /** Applies one written change of the book; while the feed waits for a whole book, it asks for one. */
  onChange(change: InstrumentChange): void {
    const { head, fromVersion, bids, asks } = change;
    if (head.syncState !== 'live') return this.suspend();
    const book = { version: head.bookVersion, time: head.bookUpdatedAt, bids, asks };
    if (change.replace) {
      // The store held no book before (it lost its contents): readers hear so before the new one.
      if (fromVersion === undefined) this.suspend();
      return this.emit(this.feed.replace(book));
    }
    if (fromVersion === undefined) this.suspend();
    else if (this.feed.live) this.emit(this.feed.apply({ ...book, fromVersion }));
    if (!this.feed.live) this.follower.refresh();
  }

  /** The whole book when the feed waits for one, else a check that the changes announced so far came. */
  private async read(): Promise<void> {
    if (this.feed.live && (await this.caughtUp())) return;
    try {
      const view = await this.store.readBook(this.instrument);
      if (this.follower.running) this.use(view);
    } catch (error) {
      this.suspend();
      throw error;
    }
  }

  /** Whether the feed reached the version the previous check found stored; notes the one stored now. */
  private async caughtUp(): Promise<boolean> {
    const head = (await this.store.readHeads([this.instrument])).get(this.instrument);
    const expected = this.expected;
    this.expected = head?.syncState === 'live' ? head.bookVersion : undefined;
    if (head?.syncState !== 'live') return false;
    return expected === undefined || this.feed.version >= expected;
  }

  private use(view: BookView | undefined): void {
    this.expected = undefined;
    if (view === undefined || view.syncState !== 'live') return this.suspend();
    if (this.feed.live && view.version === this.feed.version) return;
    this.emit(
      this.feed.replace({ version: view.version, time: view.updatedAt, bids: view.bids, asks: view.asks }),
    );
  }

  private suspend(): void {
    this.emit(this.feed.suspend());
  }

  private emit(event: BookChannelEvent | undefined): void {
    if (event !== undefined) this.deliver(event);
  }
}
