import { StateStore } from '../../store/state-store';

/** While the store cannot be read, it is tried again this often. */
const RETRY_MS = 1_000;
/** The store is read this often even without a notice, since pub/sub may lose one. */
const RECHECK_MS = 5_000;

/** What a channel reads from the store. */
export interface FollowedRead {
  /** The store lost its contents; a read follows. */
  reset(): void;
  /** Reads and delivers what changed; a rejection starts a spell of failures. */
  read(): Promise<void>;
  /** The first failure of a spell; reads are retried every second until one succeeds. */
  failed(error: unknown): void;
  /** The first success after a spell of failures. */
  recovered(): void;
}

/**
 * Runs a channel's reads of the store while started: one on each `refresh()`, after a reset, and at
 * least every few seconds; never two at once, and a refresh during a read brings one more after it.
 */
export class StoreFollower {
  private reading = false;
  private readAgain = false;
  private failing = false;
  private lastReadAt = 0;
  private stopped = true;
  private timer?: NodeJS.Timeout;
  private stopResets?: () => void;

  constructor(
    private readonly store: Pick<StateStore, 'onReset'>,
    private readonly followed: FollowedRead,
  ) {}

  get running(): boolean {
    return !this.stopped;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.stopResets = this.store.onReset(() => {
      this.followed.reset();
      this.refresh();
    });
    this.timer = setInterval(() => {
      const due = this.failing ? RETRY_MS : RECHECK_MS;
      if (Date.now() - this.lastReadAt >= due) this.refresh();
    }, RETRY_MS);
    // A follower left running must not keep the process alive after the server closed.
    this.timer.unref();
    this.refresh();
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
    this.stopResets?.();
    this.stopResets = undefined;
  }

  refresh(): void {
    if (this.stopped) return;
    if (this.reading) {
      this.readAgain = true;
      return;
    }
    this.reading = true;
    this.lastReadAt = Date.now();
    this.followed
      .read()
      .then(
        () => {
          if (this.failing) this.followed.recovered();
          this.failing = false;
        },
        (error: unknown) => {
          if (!this.failing) this.followed.failed(error);
          this.failing = true;
        },
      )
      .finally(() => {
        this.reading = false;
        if (!this.readAgain) return;
        this.readAgain = false;
        this.refresh();
      });
  }
}
