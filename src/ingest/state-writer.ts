import { StateStore } from '../store/state-store';
import { InstrumentPipeline } from './instrument-pipeline';

export interface WriterEvents {
  onWritten(instruments: number, durationMs: number): void;
  onFailed(error: Error): void;
  /** Another writer owns the instrument now: this one must stop writing it. */
  onFenced(instrument: string): void;
}

/**
 * Writes what changed in every pipeline to the store, at most once per interval whatever the upstream
 * rate: one pipelined batch, atomic per instrument. A batch that fails may or may not have been applied,
 * so its instruments are written whole next time; a store that lost its contents gets everything again.
 */
export class StateWriter {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = true;
  private stopListening?: () => void;

  constructor(
    private readonly store: StateStore,
    private readonly pipelines: () => Iterable<InstrumentPipeline>,
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
    clearTimeout(this.timer);
    this.stopListening?.();
    await this.running;
    await this.flush();
  }

  async flush(): Promise<void> {
    const owners = new Map<string, InstrumentPipeline>();
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
      this.events.onWritten(batch.length, performance.now() - started);
    } catch (error) {
      for (const pipeline of owners.values()) pipeline.replaceOnNextWrite();
      this.events.onFailed(error as Error);
    }
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.flush().finally(() => {
        this.running = undefined;
        this.schedule();
      });
    }, this.intervalMs);
  }
}
