/**
 * Tasks run one at a time, in the order asked, each key at most once in the queue: asking again for
 * work already waiting adds nothing. The owner's REST calls (book checks, candles) wait for the
 * exchange's rate limit anyway; running them in turn keeps the queue from growing with every request.
 */
export class SerialWork {
  private readonly pending = new Map<string, () => Promise<unknown>>();
  private running?: Promise<void>;
  private stopped = false;

  add(key: string, task: () => Promise<unknown>): void {
    if (this.stopped || this.pending.has(key)) return;
    this.pending.set(key, task);
    this.running ??= this.drain().finally(() => (this.running = undefined));
  }

  get size(): number {
    return this.pending.size;
  }

  /** Drops what waits and resolves once the task under way is over. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.pending.clear();
    await this.running;
  }

  private async drain(): Promise<void> {
    while (!this.stopped) {
      const next = this.pending.entries().next();
      if (next.done) return;
      const [key, task] = next.value;
      this.pending.delete(key);
      await task().catch(() => undefined);
    }
  }
}
