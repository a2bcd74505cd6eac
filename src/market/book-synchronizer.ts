import { BookMessage } from './book-update';
import { LevelDifference, OrderBook } from './order-book';
import { DEFAULT_SLICE_LEVELS, SnapshotLoad } from './snapshot-load';
import { SyncState } from './sync-state';

export interface BookSyncOptions {
  /**
   * Versions of consecutive deltas differ by exactly 1 (default true). When false (venues whose update ids
   * skip), any version above the book's is applied and only regressions are dropped: no gap detection.
   */
  readonly contiguousVersions?: boolean;
  /** Deltas ahead of a missing version held while waiting for it (default 32); one more is a gap. */
  readonly reorderWindowSize?: number;
  /** How long a missing version may be waited for (default 100 ms); then it is a gap. */
  readonly reorderWindowMs?: number;
  /** Deltas kept while there is no usable book (default 1000); beyond it the oldest half is dropped. */
  readonly maxBufferedMessages?: number;
  /** After (re)opening the stream, how long its own snapshot may take before a REST snapshot is asked for (default 1000 ms). */
  readonly snapshotWaitMs?: number;
  /** How long an asked-for snapshot may take before it is asked for again (default 5000 ms). */
  readonly snapshotRetryMs?: number;
  /**
   * After a snapshot that is crossed itself, how long before the next is asked for (default 1000 ms);
   * doubled for each further crossed snapshot in a row, up to `snapshotRetryMs`.
   */
  readonly crossedRetryMs?: number;
  /**
   * How long a live book may stay behind a REST snapshot before the versions in between count as lost
   * (default 2000 ms). A stream that lost its last deltas and then went quiet shows no gap of its own.
   */
  readonly verifyWaitMs?: number;
  /**
   * What to ask for after a gap, a crossed book or a buffer overflow (default `request-snapshot`).
   * `reopen-stream` suits feeds whose subscription reply is a snapshot.
   */
  readonly recovery?: 'request-snapshot' | 'reopen-stream';
  /**
   * A snapshot is loaded in slices of this many level operations (default about a millisecond's worth):
   * the first slice within the call that brings the snapshot, each further one by `continueLoad`.
   */
  readonly snapshotSliceLevels?: number;
}

/** What the caller must do after a call: nothing, fetch a REST snapshot, or reopen the instrument's stream (then `reset`). */
export type SyncAction = 'none' | 'request-snapshot' | 'reopen-stream';

/** Why the book left `live`. */
export type ResyncReason = 'gap' | 'crossed' | 'verify-failed' | 'buffer-overflow' | 'stream-reset';

export type SyncReason =
  | ResyncReason
  /** Deltas applied in order. */
  | 'applied'
  /** A snapshot replaced the book (buffered deltas after it applied). */
  | 'snapshot'
  /** A snapshot is being loaded: `continueLoad` until it replaces the book. */
  | 'snapshot-loading'
  /** A delta at or below the book's version (or already held/buffered) was dropped. */
  | 'stale'
  /** A delta was kept until a snapshot makes the book usable. */
  | 'buffered'
  /** A delta ahead of a missing version is waiting in the reorder window. */
  | 'held'
  /** No usable snapshot yet: one is asked for. */
  | 'awaiting-snapshot'
  /** A REST snapshot could not be used: older than the book, or older than the buffered deltas continuing it. */
  | 'snapshot-ignored'
  | 'verified'
  /** A REST snapshot ahead of the book is kept until the book reaches its version. */
  | 'verify-pending'
  /** A REST snapshot behind the book (or one the book jumped past) cannot be compared. */
  | 'verify-inconclusive'
  /** Nothing happened. */
  | 'idle';

export interface SyncOutcome {
  readonly action: SyncAction;
  /** The most significant thing that happened; a resync reason wins over everything else. */
  readonly reason: SyncReason;
  readonly state: SyncState;
  /** The book's levels or version changed: a write is due. */
  readonly bookChanged: boolean;
  /** Human-readable context for logs, e.g. the missing version or the mismatching level. */
  readonly detail?: string;
}

export interface SyncCounters {
  /** Deltas applied. */
  applied: number;
  /** Snapshots (stream or REST) that replaced the book. */
  snapshots: number;
  /** Deltas dropped as duplicates or older than the book. */
  stale: number;
  /** Buffered deltas made obsolete by a snapshot. */
  superseded: number;
  /** Snapshot loads given up half way: a newer snapshot came, the stream was reset or the buffer overflowed. */
  loadsAbandoned: number;
  gaps: number;
  crossed: number;
  bufferOverflows: number;
  /** Transitions into `resync`. */
  resyncs: number;
  snapshotsIgnored: number;
  verificationsPassed: number;
  verificationsFailed: number;
  verificationsInconclusive: number;
  snapshotRequests: number;
  streamReopens: number;
}

interface HeldDelta {
  readonly message: BookMessage;
  readonly heldAt: number;
}

interface Trouble {
  readonly reason: ResyncReason;
  readonly detail?: string;
}

const DEFAULTS = {
  contiguousVersions: true,
  reorderWindowSize: 32,
  reorderWindowMs: 100,
  maxBufferedMessages: 1000,
  snapshotWaitMs: 1000,
  snapshotRetryMs: 5000,
  crossedRetryMs: 1000,
  verifyWaitMs: 2000,
  recovery: 'request-snapshot',
  snapshotSliceLevels: DEFAULT_SLICE_LEVELS,
} as const satisfies Required<BookSyncOptions>;

/**
 * Keeps one instrument's order book in sync with a versioned stream of snapshots and deltas, with REST
 * snapshots as fallback and as a periodic check. Pure: no I/O and no clock, every input carries `now`
 * (Unix milliseconds), and every call answers with what the caller must do next.
 *
 * `syncing` (no book yet) -> `live` (deltas apply cleanly) -> `resync` (gap, crossed book, failed check,
 * buffer overflow or stream reset) -> `live` again with the next usable snapshot.
 *
 * A deep snapshot is loaded over several calls (`continueLoad`), so that the caller can let other work
 * run between slices. Meanwhile the book keeps its previous levels and version, deltas wait in the
 * buffer to apply after the snapshot, a newer snapshot replaces the load and a stream reset drops it.
 */
export class BookSynchronizer {
  readonly book = new OrderBook();
  private readonly options: Required<BookSyncOptions>;
  private readonly counts: SyncCounters = {
    applied: 0,
    snapshots: 0,
    stale: 0,
    superseded: 0,
    loadsAbandoned: 0,
    gaps: 0,
    crossed: 0,
    bufferOverflows: 0,
    resyncs: 0,
    snapshotsIgnored: 0,
    verificationsPassed: 0,
    verificationsFailed: 0,
    verificationsInconclusive: 0,
    snapshotRequests: 0,
    streamReopens: 0,
  };

  private currentState: SyncState = 'syncing';
  private enteredStateAt: number;
  /** Whether a snapshot has ever been loaded, so that the book's version means something. */
  private loaded = false;
  /** Deltas received while not live, by version. */
  private readonly buffer = new Map<number, BookMessage>();
  /** Live deltas ahead of a missing version, by version (contiguous versions only). */
  private readonly held = new Map<number, HeldDelta>();
  /** A REST snapshot ahead of the book, compared when the book reaches its version. */
  private pendingCheck: BookMessage | undefined;
  /** Since when the book has been behind the pending check's version. */
  private pendingSince = 0;
  /** The snapshot being loaded, if any. */
  private loading: { readonly snapshot: BookMessage; readonly load: SnapshotLoad } | undefined;
  /** While not live: when to ask for a snapshot. */
  private snapshotDueAt: number | undefined;
  /** Whether a snapshot was asked for since the book stopped being live. */
  private snapshotAsked = false;
  /** Snapshots in a row that were crossed themselves: the exchange's own book is crossed. */
  private crossedSnapshots = 0;

  // Results of the call in progress.
  private changed = false;
  private trouble: Trouble | undefined;
  private troubleHealed = false;
  /** The trouble is a crossed snapshot: the next snapshot is asked for later, not at once. */
  private troubleWaitedOut = false;

  constructor(
    readonly instrument: string,
    now: number,
    options: BookSyncOptions = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
    this.enteredStateAt = now;
    this.snapshotDueAt = now + this.options.snapshotWaitMs;
  }

  get state(): SyncState {
    return this.currentState;
  }

  /** Unix milliseconds when the current state was entered. */
  get stateSince(): number {
    return this.enteredStateAt;
  }

  get counters(): Readonly<SyncCounters> {
    return { ...this.counts };
  }

  /** Times the book left `live`, as `counters.resyncs` without copying every counter. */
  get resyncCount(): number {
    return this.counts.resyncs;
  }

  /** A snapshot is being loaded: call `continueLoad` (on a later turn) until this is false. */
  get loadPending(): boolean {
    return this.loading !== undefined;
  }

  /**
   * Whether time alone can change anything: a snapshot to ask for, a missing version or a pending
   * check to give up on. Otherwise `tick` does nothing and need not be called.
   */
  get waitsOnTime(): boolean {
    return this.currentState !== 'live' || this.held.size > 0 || this.pendingCheck !== undefined;
  }

  /** Deltas waiting for a snapshot (not live) or for a missing version (live). */
  get waitingDeltas(): number {
    return this.buffer.size + this.held.size;
  }

  /** A message of the instrument's stream: a snapshot replaces the book, a delta applies, waits or is dropped. */
  onStreamMessage(message: BookMessage, now: number): SyncOutcome {
    this.checkInstrument(message);
    this.begin();
    let reason: SyncReason;
    if (message.snapshot) {
      reason = this.useSnapshot(message, now);
    } else if (this.currentState === 'live' && this.loading === undefined) {
      reason = this.onLiveDelta(message, now);
    } else {
      reason = this.bufferDelta(message, now);
    }
    this.checkReorderWindow(now);
    return this.finish(reason, now);
  }

  /** A REST snapshot: the base of the book while not live, a check of the book while live. */
  onRestSnapshot(snapshot: BookMessage, now: number): SyncOutcome {
    this.checkInstrument(snapshot);
    if (!snapshot.snapshot) throw new Error(`${this.instrument}: a REST snapshot must have snapshot: true`);
    this.begin();
    let reason: SyncReason;
    let detail: string | undefined;
    if (this.currentState === 'live' && this.loading === undefined) {
      reason = this.verify(snapshot, now);
    } else {
      detail = this.whyUnusable(snapshot);
      if (detail === undefined) {
        reason = this.useSnapshot(snapshot, now);
      } else {
        this.counts.snapshotsIgnored++;
        reason = 'snapshot-ignored';
      }
    }
    this.checkReorderWindow(now);
    return this.finish(reason, now, detail);
  }

  /** The next slice of the snapshot being loaded; the book is replaced with the last one. */
  continueLoad(now: number): SyncOutcome {
    this.begin();
    const reason = this.loading === undefined ? 'idle' : this.stepLoad(now);
    return this.finish(reason, now);
  }

  /** The passage of time: a missing version waited for too long, a snapshot that is due. */
  tick(now: number): SyncOutcome {
    this.begin();
    this.checkReorderWindow(now);
    this.checkPendingAge(now);
    return this.finish('idle', now);
  }

  /**
   * The stream has just been opened and its snapshot is on the way: a book that is not live waits
   * `snapshotWaitMs` from now for it before asking for a REST snapshot. Streams opened a few at a
   * time may open long after the synchronizer was made, and the REST fallback is rate limited.
   */
  streamOpened(now: number): void {
    if (this.currentState === 'live') return;
    this.snapshotDueAt = now + this.options.snapshotWaitMs;
  }

  /**
   * The stream was interrupted or reopened: everything in flight belongs to the old stream. The book keeps its
   * last levels but is no longer live (`resync`, or still `syncing` if it never had a snapshot); the new stream's
   * own snapshot is waited for `snapshotWaitMs`, then a REST snapshot is asked for.
   */
  reset(reason: string, now: number): SyncOutcome {
    this.begin();
    this.abandonLoad();
    this.buffer.clear();
    this.held.clear();
    this.pendingCheck = undefined;
    if (this.currentState === 'live') this.counts.resyncs++;
    this.setState(this.loaded ? 'resync' : 'syncing', now);
    this.snapshotAsked = false;
    this.snapshotDueAt = now + this.options.snapshotWaitMs;
    return this.finish('stream-reset', now, reason);
  }

  private onLiveDelta(message: BookMessage, now: number): SyncReason {
    const current = this.book.version;
    if (message.version <= current) {
      this.counts.stale++;
      return 'stale';
    }
    if (!this.options.contiguousVersions || message.version === current + 1) {
      this.applyDelta(message);
      this.afterApplied(now);
      return 'applied';
    }
    if (this.held.has(message.version)) {
      this.counts.stale++;
      return 'stale';
    }
    this.held.set(message.version, { message, heldAt: now });
    if (this.held.size > this.options.reorderWindowSize) {
      this.gap(now, `version ${current + 1} missing with ${this.held.size} later deltas waiting`);
    }
    return 'held';
  }

  private applyDelta(message: BookMessage): void {
    for (const update of message.updates) this.book.apply(update);
    this.book.version = message.version;
    this.book.updatedAt = message.time;
    this.counts.applied++;
    this.changed = true;
  }

  /** After the book moved (by a delta, or to a new snapshot): the checks that may end `live`. */
  private afterBookMoved(now: number, bySnapshot = false): void {
    if (this.book.isCrossed()) {
      this.counts.crossed++;
      const bid = this.book.best('bid')?.[0];
      const ask = this.book.best('ask')?.[0];
      this.enterResync('crossed', now, `best bid ${bid} >= best ask ${ask} at version ${this.book.version}`);
      if (bySnapshot) this.waitOutCrossedBook(now);
      return;
    }
    if (bySnapshot) this.crossedSnapshots = 0;
    this.checkPending(now);
  }

  /**
   * A snapshot that is crossed itself is the exchange's own book, not a copy gone wrong: one asked for
   * at once would be crossed again, and the next, as fast as the exchange answers. The next snapshot is
   * asked for after `crossedRetryMs`, doubled for each crossed snapshot in a row up to `snapshotRetryMs`;
   * meanwhile deltas wait in the buffer.
   */
  private waitOutCrossedBook(now: number): void {
    // Healed at once from a REST snapshot in hand: that one is being loaded.
    if (this.loading !== undefined) return;
    const delay = Math.min(
      this.options.snapshotRetryMs,
      this.options.crossedRetryMs * 2 ** Math.min(this.crossedSnapshots, 30),
    );
    this.crossedSnapshots++;
    this.troubleWaitedOut = true;
    this.snapshotDueAt = now + delay;
  }

  /** Checks the book after a delta, then applies the held deltas that have become next in line. */
  private afterApplied(now: number): void {
    for (;;) {
      this.afterBookMoved(now);
      // Nearly always nothing is held: skip the lookups and the iterator on every delta.
      if (this.currentState !== 'live' || this.held.size === 0) return;
      const next = this.held.get(this.book.version + 1);
      if (next === undefined) break;
      this.held.delete(next.message.version);
      this.applyDelta(next.message);
    }
    for (const version of this.held.keys()) {
      if (version <= this.book.version) {
        this.held.delete(version);
        this.counts.stale++;
      }
    }
  }

  private checkReorderWindow(now: number): void {
    if (this.currentState !== 'live' || this.held.size === 0) return;
    let oldest = Infinity;
    for (const { heldAt } of this.held.values()) oldest = Math.min(oldest, heldAt);
    if (now - oldest >= this.options.reorderWindowMs) {
      this.gap(now, `version ${this.book.version + 1} missing for ${now - oldest} ms`);
    }
  }

  private gap(now: number, detail: string): void {
    this.counts.gaps++;
    this.enterResync('gap', now, detail);
  }

  private bufferDelta(message: BookMessage, now: number): SyncReason {
    if ((this.loaded && message.version <= this.book.version) || this.buffer.has(message.version)) {
      this.counts.stale++;
      return 'stale';
    }
    this.buffer.set(message.version, message);
    // The stream began with a delta, so its own snapshot is not coming: ask for one at once (unless a
    // crossed exchange book is being waited out).
    if (!this.snapshotAsked && this.crossedSnapshots === 0) this.snapshotDueAt = now;
    if (this.buffer.size > this.options.maxBufferedMessages) {
      // Keep the newest half: a snapshot taken from now on is newer than the dropped deltas.
      const versions = [...this.buffer.keys()].sort((a, b) => a - b);
      const drop = versions.slice(0, versions.length - Math.floor(this.options.maxBufferedMessages / 2));
      drop.forEach((version) => this.buffer.delete(version));
      this.counts.bufferOverflows++;
      this.enterResync('buffer-overflow', now, `${drop.length} oldest deltas dropped waiting for a snapshot`);
    }
    return 'buffered';
  }

  /** Why a REST snapshot cannot serve as the base, or undefined when it can. */
  private whyUnusable(snapshot: BookMessage): string | undefined {
    if (this.loading !== undefined && snapshot.version <= this.loading.snapshot.version) {
      return `snapshot version ${snapshot.version} is not newer than the one loading, ${this.loading.snapshot.version}`;
    }
    if (this.loaded && snapshot.version < this.book.version) {
      return `snapshot version ${snapshot.version} is older than the book's ${this.book.version}`;
    }
    if (!this.options.contiguousVersions) return undefined;
    let firstAfter = Infinity;
    for (const version of this.buffer.keys()) {
      if (version > snapshot.version) firstAfter = Math.min(firstAfter, version);
    }
    if (firstAfter !== Infinity && firstAfter > snapshot.version + 1) {
      return `snapshot version ${snapshot.version} is older than the buffered deltas from ${firstAfter}`;
    }
    return undefined;
  }

  /**
   * Starts loading a snapshot, in place of any load under way, and does its first slice. Deltas wait in
   * the buffer until it is installed, held ones included; no other snapshot is asked for meanwhile.
   */
  private useSnapshot(snapshot: BookMessage, now: number): SyncReason {
    this.abandonLoad();
    this.loading = {
      snapshot,
      load: this.book.startLoad(snapshot.updates, this.options.snapshotSliceLevels),
    };
    for (const [version, { message }] of this.held) this.buffer.set(version, message);
    this.held.clear();
    this.snapshotDueAt = undefined;
    return this.stepLoad(now);
  }

  private stepLoad(now: number): SyncReason {
    const { snapshot, load } = this.loading!;
    if (load.step() === undefined) return 'snapshot-loading';
    this.loading = undefined;
    this.book.install(load, snapshot.version, snapshot.time);
    this.afterSnapshot(now);
    return 'snapshot';
  }

  private abandonLoad(): void {
    if (this.loading === undefined) return;
    this.loading = undefined;
    this.counts.loadsAbandoned++;
  }

  /** The book holds a snapshot now: goes live and replays the waiting deltas newer than it in version order. */
  private afterSnapshot(now: number): void {
    this.loaded = true;
    this.changed = true;
    this.counts.snapshots++;
    this.setState('live', now);
    this.snapshotDueAt = undefined;
    this.snapshotAsked = false;
    const waiting = [...this.buffer.values(), ...[...this.held.values()].map((held) => held.message)];
    this.buffer.clear();
    this.held.clear();
    waiting.sort((a, b) => a.version - b.version);
    this.afterBookMoved(now, true);
    for (const message of waiting) {
      if (message.version <= this.book.version) this.counts.superseded++;
      else if (this.currentState === 'live') this.onLiveDelta(message, now);
      else this.buffer.set(message.version, message);
    }
  }

  private verify(snapshot: BookMessage, now: number): SyncReason {
    if (snapshot.version < this.book.version) {
      this.counts.verificationsInconclusive++;
      return 'verify-inconclusive';
    }
    if (snapshot.version > this.book.version) {
      if (this.pendingCheck !== undefined) this.counts.verificationsInconclusive++;
      else this.pendingSince = now;
      this.pendingCheck = snapshot;
      return 'verify-pending';
    }
    return this.compare(snapshot, now) ? 'verified' : 'verify-failed';
  }

  /**
   * A book still behind a pending REST snapshot after `verifyWaitMs` missed the versions in between:
   * a gap, healed at once from that snapshot, which is the exchange's book at a version the stream
   * has not delivered.
   */
  private checkPendingAge(now: number): void {
    const pending = this.pendingCheck;
    if (this.currentState !== 'live' || pending === undefined || this.loading !== undefined) return;
    if (now - this.pendingSince < this.options.verifyWaitMs) return;
    this.gap(
      now,
      `book at version ${this.book.version} for ${now - this.pendingSince} ms, REST snapshot at ${pending.version}`,
    );
  }

  /** Compares a pending REST snapshot once the book has reached (or passed) its version. */
  private checkPending(now: number): void {
    const pending = this.pendingCheck;
    if (pending === undefined || pending.version > this.book.version) return;
    this.pendingCheck = undefined;
    if (pending.version < this.book.version) this.counts.verificationsInconclusive++;
    else this.compare(pending, now);
  }

  /**
   * Compares the book with a REST snapshot of the same version. On a mismatch the book enters `resync` and is
   * rebuilt from that snapshot at once: it is the exchange's own book at exactly this version.
   */
  private compare(snapshot: BookMessage, now: number): boolean {
    const difference = this.book.firstDifferenceFrom(snapshot.updates);
    if (difference === undefined) {
      this.counts.verificationsPassed++;
      return true;
    }
    this.counts.verificationsFailed++;
    this.enterResync('verify-failed', now, describeDifference(snapshot.version, difference), snapshot);
    return false;
  }

  /**
   * Leaves `live` (or `syncing`). Held deltas move to the buffer, since they may continue the next snapshot.
   * A REST snapshot in hand that can serve as the base (the one that failed a check, or one pending a check)
   * is used at once.
   */
  private enterResync(reason: ResyncReason, now: number, detail?: string, base?: BookMessage): void {
    this.trouble = { reason, detail };
    this.troubleHealed = false;
    this.abandonLoad();
    if (this.currentState !== 'resync') this.counts.resyncs++;
    this.setState('resync', now);
    for (const [version, { message }] of this.held) this.buffer.set(version, message);
    this.held.clear();
    this.snapshotAsked = false;
    this.snapshotDueAt = now;
    const candidate = base ?? this.pendingCheck;
    this.pendingCheck = undefined;
    if (candidate !== undefined && this.whyUnusable(candidate) === undefined) {
      this.troubleHealed = true;
      this.useSnapshot(candidate, now);
    }
  }

  private setState(state: SyncState, now: number): void {
    if (state !== this.currentState) this.enteredStateAt = now;
    this.currentState = state;
  }

  private begin(): void {
    this.changed = false;
    this.trouble = undefined;
    this.troubleHealed = false;
    this.troubleWaitedOut = false;
  }

  private finish(reason: SyncReason, now: number, detail?: string): SyncOutcome {
    let action: SyncAction = 'none';
    let finalReason = this.trouble?.reason ?? reason;
    const finalDetail = this.trouble === undefined ? detail : this.trouble.detail;
    // While a snapshot loads, nothing more is asked for: it is the one awaited.
    if (this.currentState !== 'live' && this.loading === undefined) {
      const waiting = this.troubleHealed || this.troubleWaitedOut;
      if (this.trouble !== undefined && !waiting && this.options.recovery === 'reopen-stream') {
        action = 'reopen-stream';
      } else if (this.snapshotDueAt !== undefined && now >= this.snapshotDueAt) {
        action = 'request-snapshot';
        if (this.trouble === undefined && (reason === 'idle' || reason === 'buffered')) {
          finalReason = 'awaiting-snapshot';
        }
      }
      if (action !== 'none') {
        this.snapshotAsked = true;
        this.snapshotDueAt = now + this.options.snapshotRetryMs;
        if (action === 'request-snapshot') this.counts.snapshotRequests++;
        else this.counts.streamReopens++;
      }
    }
    return {
      action,
      reason: finalReason,
      state: this.currentState,
      bookChanged: this.changed,
      ...(finalDetail === undefined ? {} : { detail: finalDetail }),
    };
  }

  private checkInstrument(message: BookMessage): void {
    if (message.instrument !== this.instrument) {
      throw new Error(
        `book message for ${message.instrument} routed to the synchronizer of ${this.instrument}`,
      );
    }
  }
}

function describeDifference(version: number, difference: LevelDifference): string {
  return (
    `at version ${version} the ${difference.side} level ${difference.price} is ` +
    `${difference.amount ?? 'missing'} in the book and ${difference.expected ?? 'missing'} in the snapshot`
  );
}
