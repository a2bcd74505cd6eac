/**
 * Runs at most `limit` calls at once; the others wait, in arrival order, for a running one to settle.
 * A freed slot passes straight to the next waiter, so a newcomer can never slip in ahead of it.
 */
export class CallPacer {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new Error(`invalid limit ${limit}: must be a positive integer`);
  }

  async run<T>(call: () => Promise<T>): Promise<T> {
    if (this.running < this.limit) this.running += 1;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await call();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}
