import { Logger } from '@nestjs/common';
import { BookChannelEvent } from '../../market/stream/book-channel-event';
import { BookChannelFeed } from '../../market/stream/book-channel-feed';
import { BookView, StateStore } from '../../store/state-store';
import { levelDiff } from './level-diff';
import { StoreFollower } from './store-follower';

export type BookEventSink = (event: BookChannelEvent) => void;

/**
 * Keeps one instrument's `BookChannelFeed` equal to the stored book while it is started: on each change
 * notice it reads the book and applies the levels that differ from the last read, and it suspends the
 * feed whenever the stored book is not live, cannot be read, or the store lost its contents.
 */
export class BookFeedDriver {
  private readonly logger = new Logger(BookFeedDriver.name);
  private readonly follower: StoreFollower;
  private held?: BookView;

  constructor(
    readonly feed: BookChannelFeed,
    private readonly instrument: string,
    private readonly store: Pick<StateStore, 'readBook' | 'onChange' | 'onReset'>,
    private readonly deliver: BookEventSink,
  ) {
    this.follower = new StoreFollower(store, {
      wants: (notice) => notice.kind === 'instrument' && notice.instrument === instrument,
      reset: () => this.suspend(),
      read: async () => {
        const view = await this.store.readBook(this.instrument).catch((error: unknown) => {
          this.suspend();
          throw error;
        });
        if (this.follower.running) this.use(view);
      },
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

  /** Reads the stored book; a notice during a read brings one more read after it, never two at once. */
  refresh(): void {
    this.follower.refresh();
  }

  /** Feeds a read of the stored book: the whole of it after a gap, the levels that changed otherwise. */
  use(view: BookView | undefined): void {
    if (view === undefined || view.syncState !== 'live') return this.suspend();
    const held = this.held;
    if (held && view.version === held.version && this.feed.live) return;
    this.held = view;
    const book = { version: view.version, time: view.updatedAt };
    if (!held || !this.feed.live || view.version < held.version) {
      this.emit(this.feed.replace({ ...book, bids: view.bids, asks: view.asks }));
      return;
    }
    this.emit(
      this.feed.apply({
        ...book,
        bids: levelDiff(held.bids, view.bids),
        asks: levelDiff(held.asks, view.asks),
      }),
    );
  }

  private suspend(): void {
    this.held = undefined;
    this.emit(this.feed.suspend());
  }

  private emit(event: BookChannelEvent | undefined): void {
    if (event !== undefined) this.deliver(event);
  }
}
