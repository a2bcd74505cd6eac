/**
 * Runs `task` on every item in turn, spreading one round over `periodMs`, one task at a time: a slow
 * task (a REST call waiting for its rate limit) stretches the round instead of piling calls up.
 */
export class RoundRobin<T> {
  private stopped = true;
  private wake?: () => void;
  private loop?: Promise<void>;

  constructor(
    private readonly items: () => readonly T[],
    private readonly periodMs: number,
    private readonly task: (item: T) => Promise<unknown>,
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      const items = this.items();
      if (items.length === 0) {
        await this.sleep(1_000);
        continue;
      }
      const spacing = this.periodMs / items.length;
      for (const item of items) {
        if (this.stopped) return;
        const started = Date.now();
        await this.task(item).catch(() => undefined);
        await this.sleep(spacing - (Date.now() - started));
      }
    }
  }

  private sleep(ms: number): Promise<void> {
    if (ms <= 0 || this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
