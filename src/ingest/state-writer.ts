import { InstrumentWrite, StateStore } from '../store/state-store';

/**
 * How long after the message that ends a quiet spell its write starts: one event upstream often
 * comes as a book change and a trade on two sockets, a few milliseconds apart, and both should go
 * in the same write.
 */
const QUIET_SPELL_WRITE_DELAY_MS = 5;

/**
 * Levels and trades one write carries at most (a single instrument's write may carry more). After a
 * failed write, or at the start, every instrument is written whole: in one batch, thousands of deep
 * books would outlast the store's command timeout and fail again, every time.
 */
export const DEFAULT_WRITE_ENTRY_BUDGET = 100_000;

/** What the writer needs of an instrument's pipeline. */
export interface WriteSource {
  /** The write that brings the store up to date, or undefined when nothing changed. */
  takeWrite(): InstrumentWrite | undefined;
  /** The store may not hold what was written: the next write must be whole. */
  replaceOnNextWrite(): void;
}

export interface WriterEvents {
  /** `stored`: the writes of the batch the store took, the fenced ones left out. */
  onWritten(stored: readonly InstrumentWrite[], durationMs: number): void;
  onFailed(error: Error): void;
  /** Another writer owns the instrument now: this one must stop writing it. */
  onFenced(instrument: string): void;
}

/**
 * Writes what changed in every pipeline to the store, once per interval whatever the upstream rate:
 * one pipelined batch of at most `entryBudget` levels and trades, atomic per instrument. A change
 * that ends a quiet spell (the last flush on the cadence found nothing) is written a few
 * milliseconds after it is applied, not up to an interval later. A batch that fails may or may not
 * have been applied, so its instruments are written whole next time; a store that lost its contents
 * gets everything again.
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
  /**
   * `idle`: the last flush on the cadence found nothing to write, and the next applied message brings
   * the next flush forward (`ending`). A flush brought forward does not make the writer idle again,
   * so messages that change nothing cost at most one extra pass over the pipelines per interval.
   */
  private quietSpell: 'none' | 'idle' | 'ending' = 'none';
  /** Where the next flush starts looking, so that a write cut short by the budget does not starve the rest. */
  private nextPipeline = 0;
  /** The last flush stopped at the budget: changes are left for the next one. */
  private cutShort = false;

  constructor(
    private readonly store: StateStore,
    private readonly pipelines: () => Iterable<WriteSource>,
    private readonly intervalMs: number,
    private readonly events: WriterEvents,
    private readonly entryBudget = DEFAULT_WRITE_ENTRY_BUDGET,
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
    this.quietSpell = 'none';
    clearTimeout(this.timer);
    this.stopListening?.();
    await this.running;
    do await this.flush();
    while (this.cutShort && !this.failing);
  }

  /**
   * Called after each applied message. Starts the flush now if it is due, or brings it forward if the
   * writer was idle. A process busy with incoming data for longer than the interval runs its timers
   * only once that data is handled, and every change received meanwhile would wait for the end of it
   * (hundreds of ms under a burst on a starved machine); called between messages, this keeps the
   * cadence.
   */
  flushIfDue(): void {
    if (this.quietSpell === 'idle') {
      this.quietSpell = 'ending';
      clearTimeout(this.timer);
      this.schedule(Math.min(QUIET_SPELL_WRITE_DELAY_MS, this.intervalMs));
      return;
    }
    if (performance.now() < this.dueAt) return;
    clearTimeout(this.timer);
    this.runFlush();
  }

  /** Writes what changed; resolves to the number of instruments written. */
  async flush(): Promise<number> {
    const owners = new Map<string, WriteSource>();
    const batch = [];
    const pipelines = [...this.pipelines()];
    let entries = 0;
    let visited = 0;
    this.cutShort = false;
    for (; visited < pipelines.length; visited++) {
      if (entries >= this.entryBudget) {
        this.cutShort = true;
        break;
      }
      const pipeline = pipelines[(this.nextPipeline + visited) % pipelines.length];
      const write = pipeline.takeWrite();
      if (!write) continue;
      owners.set(write.instrument, pipeline);
      batch.push(write);
      entries += entriesOf(write);
    }
    this.nextPipeline = pipelines.length === 0 ? 0 : (this.nextPipeline + visited) % pipelines.length;
    if (batch.length === 0) return 0;
    const started = performance.now();
    try {
      const outcomes = await this.store.write(batch);
      let fenced: Set<string> | undefined;
      for (const outcome of outcomes)
        if (outcome.result === 'fenced') {
          (fenced ??= new Set()).add(outcome.instrument);
          this.events.onFenced(outcome.instrument);
        }
      this.failing = false;
      this.events.onWritten(
        fenced ? batch.filter((write) => !fenced.has(write.instrument)) : batch,
        performance.now() - started,
      );
    } catch (error) {
      this.failing = true;
      for (const pipeline of owners.values()) pipeline.replaceOnNextWrite();
      this.events.onFailed(error as Error);
    }
    return batch.length;
  }

  /**
   * Flushes start one interval apart, measured from start to start: the time a write spends in the
   * store is part of the interval, not added to it, or every change would wait for the interval plus
   * the last write. A write that takes longer than the interval is followed at once by the next one,
   * never overlapped by it, and so is one cut short by the budget. A failed write is followed a whole
   * interval after it ended: the next one carries the whole state of its instruments, which a store
   * that is timing out must not be sent back to back.
   */
  private schedule(delayMs = this.intervalMs): void {
    if (this.stopped) return;
    this.dueAt = performance.now() + delayMs;
    this.timer = setTimeout(() => this.runFlush(), delayMs);
  }

  private runFlush(): void {
    const onCadence = this.quietSpell !== 'ending';
    this.dueAt = Number.POSITIVE_INFINITY;
    this.quietSpell = 'none';
    const started = performance.now();
    this.running = this.flush()
      .then((written) => {
        if (onCadence && written === 0 && !this.stopped) this.quietSpell = 'idle';
      })
      .finally(() => {
        this.running = undefined;
        const spent = performance.now() - started;
        if (this.failing) this.schedule(this.intervalMs);
        else this.schedule(this.cutShort ? 0 : Math.max(0, this.intervalMs - spent));
      });
  }
}

function entriesOf(write: InstrumentWrite): number {
  return (
    1 +
    (write.levels ? write.levels.bids.length + write.levels.asks.length : 0) +
    (write.tradesAdded?.length ?? 0)
  );
}
