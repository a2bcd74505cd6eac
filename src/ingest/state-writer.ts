import { InstrumentWrite, StateStore } from '../store/state-store';

/** What the writer needs of an instrument's pipeline. */
export interface WriteSource {
  /** The write that brings the store up to date, or undefined when nothing changed. */
  takeWrite(): InstrumentWrite | undefined;
  /** The store may not hold what was written: the next write must be whole. */
  replaceOnNextWrite(): void;
}

export interface WriterEvents {
  onWritten(instruments: number, durationMs: number): void;
  onFailed(error: Error): void;
  /** Another writer owns the instrument now: this one must stop writing it. */
  onFenced(instrument: string): void;
}

/**
 * Writes what changed in every pipeline to the store, once per interval whatever the upstream rate:
 * one pipelined batch, atomic per instrument. A batch that fails may or may not have been applied,
 * so its instruments are written whole next time; a store that lost its contents gets everything again.
 */
export class StateWriter {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = true;
  private stopListening?: () => void;
  /** The last write failed: its instruments are written whole next time. */
  private failing = false;
  /** When the next flush is due, on `performance.now()`'s clock; never while one runs or once stopped. */
  private dueAt = Number.POSITIVE_INFINITY;

  constructor(
    private readonly store: StateStore,
    private readonly pipelines: () => Iterable<WriteSource>,
    private readonly intervalMs: number,
    private readonly events: WriterEvents,
  ) {}

  start(): void {
    this.stopped = false;
    this.stopListening = this.store.onReset(() => {
      for (const pipeline of this.pipelines()) pipeline.replaceOnNextWrite();
    });
    this.schedule();
  }

  /** Stops the loop after a last flush, so that nothing already received is left unwritten. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.dueAt = Number.POSITIVE_INFINITY;
    clearTimeout(this.timer);
    this.stopListening?.();
    await this.running;
    await this.flush();
  }

  /**
   * Starts the flush now if it is due. A process busy with incoming data for longer than the
   * interval runs its timers only once that data is handled, and every change received meanwhile
   * would wait for the end of it (hundreds of ms under a burst on a starved machine); called between
   * messages, this keeps the cadence.
   */
  flushIfDue(): void {
    if (performance.now() < this.dueAt) return;
    clearTimeout(this.timer);
    this.runFlush();
  }

  async flush(): Promise<void> {
    const owners = new Map<string, WriteSource>();
    const batch = [];
    for (const pipeline of this.pipelines()) {
      const write = pipeline.takeWrite();
      if (!write) continue;
      owners.set(write.instrument, pipeline);
      batch.push(write);
    }
    if (batch.length === 0) return;
    const started = performance.now();
    try {
      const outcomes = await this.store.write(batch);
      for (const outcome of outcomes)
        if (outcome.result === 'fenced') this.events.onFenced(outcome.instrument);
      this.failing = false;
      this.events.onWritten(batch.length, performance.now() - started);
    } catch (error) {
      this.failing = true;
      for (const pipeline of owners.values()) pipeline.replaceOnNextWrite();
      this.events.onFailed(error as Error);
    }
  }

  /**
   * Flushes start one interval apart, measured from start to start: the time a write spends in the
   * store is part of the interval, not added to it, or every change would wait for the interval plus
   * the last write. A write that takes longer than the interval is followed at once by the next one,
   * never overlapped by it. A failed write is followed a whole interval after it ended: the next one
   * carries the whole state of its instruments, which a store that is timing out must not be sent
   * back to back.
   */
  private schedule(delayMs = this.intervalMs): void {
    if (this.stopped) return;
    this.dueAt = performance.now() + delayMs;
    this.timer = setTimeout(() => this.runFlush(), delayMs);
  }

  private runFlush(): void {
    this.dueAt = Number.POSITIVE_INFINITY;
    const started = performance.now();
    this.running = this.flush().finally(() => {
      this.running = undefined;
      const spent = performance.now() - started;
      this.schedule(this.failing ? this.intervalMs : Math.max(0, this.intervalMs - spent));
    });
  }
}
