import { ChangeSubscription, InstrumentChange, StateStore } from '../../store/state-store';

/** While the store cannot be read, it is tried again this often. */
const RETRY_MS = 1_000;
/** The store is read this often even without a notice, since pub/sub may lose one. */
const RECHECK_MS = 5_000;

/** What a channel follows of one instrument in the store: each write's change, and reads. */
export interface FollowedRead {
  /** What a write changed, in the order of the writes; one that comes during a read, after it. */
  change(change: InstrumentChange): void;
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
 * Follows one instrument's writes while started, and runs the channel's reads of the store: the first
 * once the writes reach it (so that none falls between the two), then one on each `refresh()`, after a
 * reset, and at least every few seconds; never two at once, and a refresh during a read brings one
 * more after it.
 */
export class StoreFollower {
  private reading = false;
  private readAgain = false;
  private failing = false;
  /** `performance.now()`: a wall clock that steps back would hold the rechecks off. */
  private lastReadAt = -Infinity;
  private stopped = true;
  private timer?: NodeJS.Timeout;
  private stopResets?: () => void;
  private subscription?: ChangeSubscription;
  /** Changes that came during the read under way. */
  private held?: InstrumentChange[];

  constructor(
    private readonly store: Pick<StateStore, 'onReset' | 'followInstrument'>,
    private readonly instrument: string,
    private readonly followed: FollowedRead,
  ) {}

  get running(): boolean {
    return !this.stopped;
  }

  start(): void {
    if (this.subscription) return;
    const subscription = this.store.followInstrument(this.instrument, (change) =>
      this.held ? this.held.push(change) : this.followed.change(change),
    );
    this.subscription = subscription;
    const begin = (): void => {
      if (this.subscription === subscription) this.startReading();
    };
    subscription.ready.then(begin, begin);
  }

  private startReading(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.stopResets = this.store.onReset(() => {
      this.followed.reset();
      this.refresh();
    });
    this.timer = setInterval(() => {
      const due = this.failing ? RETRY_MS : RECHECK_MS;
      if (performance.now() - this.lastReadAt >= due) this.refresh();
    }, RETRY_MS);
    // A follower left running must not keep the process alive after the server closed.
    this.timer.unref();
    this.refresh();
  }

  stop(): void {
    this.subscription?.close();
    this.subscription = undefined;
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
    this.held = [];
    this.lastReadAt = performance.now();
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
        const held = this.held ?? [];
        this.held = undefined;
        for (const change of held) this.followed.change(change);
        if (!this.readAgain) return;
        this.readAgain = false;
        this.refresh();
      });
  }
}
