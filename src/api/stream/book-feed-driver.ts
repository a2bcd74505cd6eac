import { Logger } from '@nestjs/common';
import { BookChannelEvent } from '../../market/stream/book-channel-event';
import { BookChannelFeed } from '../../market/stream/book-channel-feed';
import { BookView, StateStore } from '../../store/state-store';
import { levelDiff } from './level-diff';

/** While the store cannot be read, it is tried again this often. */
const RETRY_MS = 1_000;
/** The book is read this often even without a notice, since pub/sub may lose one. */
const RECHECK_MS = 5_000;

export type BookEventSink = (event: BookChannelEvent) => void;

/**
 * Keeps one instrument's `BookChannelFeed` equal to the stored book while it is started: on each change
 * notice it reads the book and applies the levels that differ from the last read, and it suspends the
 * feed whenever the stored book is not live, cannot be read, or the store lost its contents.
 */
export class BookFeedDriver {
  private readonly logger = new Logger(BookFeedDriver.name);
  private held?: BookView;
  private reading = false;
  private readAgain = false;
  private failing = false;
  private lastReadAt = 0;
  private stopped = true;
  private timer?: NodeJS.Timeout;
  private unsubscribe: (() => void)[] = [];

  constructor(
    readonly feed: BookChannelFeed,
    private readonly instrument: string,
    private readonly store: Pick<StateStore, 'readBook' | 'onChange' | 'onReset'>,
    private readonly deliver: BookEventSink,
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.unsubscribe = [
      this.store.onChange((notice) => {
        if (notice.kind === 'instrument' && notice.instrument === this.instrument) this.refresh();
      }),
      this.store.onReset(() => {
        this.suspend();
        this.refresh();
      }),
    ];
    this.timer = setInterval(() => {
      const due = this.failing ? RETRY_MS : RECHECK_MS;
      if (Date.now() - this.lastReadAt >= due) this.refresh();
    }, RETRY_MS);
    this.refresh();
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
    for (const unsubscribe of this.unsubscribe) unsubscribe();
    this.unsubscribe = [];
  }

  /** Reads the stored book; a notice during a read brings one more read after it, never two at once. */
  refresh(): void {
    if (this.stopped) return;
    if (this.reading) {
      this.readAgain = true;
      return;
    }
    this.reading = true;
    this.lastReadAt = Date.now();
    this.store
      .readBook(this.instrument)
      .then(
        (view) => {
          if (this.failing) this.logger.log(`${this.instrument}: store readable again`);
          this.failing = false;
          if (!this.stopped) this.use(view);
        },
        (error: unknown) => {
          if (!this.failing)
            this.logger.warn(`${this.instrument}: book unreadable, stream resyncing: ${String(error)}`);
          this.failing = true;
          this.suspend();
        },
      )
      .finally(() => {
        this.reading = false;
        if (!this.readAgain) return;
        this.readAgain = false;
        this.refresh();
      });
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
