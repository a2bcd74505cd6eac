/**
 * Admits at most `limit` calls per key in any window of `windowMs`: a call at time t is admitted
 * when fewer than `limit` admitted calls of that key fall in (t - windowMs, t]. Refused calls do
 * not use up the allowance, so a client that backs off for one window always gets through again.
 */
export class SlidingWindowLimiter {
  /** Per key, the times of its last `limit` admitted calls, oldest first. */
  private readonly admitted = new Map<string, number[]>();
  private callsSinceSweep = 0;

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    /** Forget idle keys after this many calls, so that the map does not grow with every client ever seen. */
    private readonly sweepEvery = 10_000,
  ) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError('limit must be a positive integer');
    if (!(windowMs > 0)) throw new RangeError('windowMs must be positive');
  }

  /** Admits the call and records it, or refuses it; `now` must not go backwards (a monotonic clock). */
  tryAcquire(key: string, now: number): boolean {
    if (++this.callsSinceSweep >= this.sweepEvery) this.sweep(now);
    let times = this.admitted.get(key);
    if (!times) {
      times = [];
      this.admitted.set(key, times);
    }
    if (times.length >= this.limit && times[0] > now - this.windowMs) return false;
    times.push(now);
    if (times.length > this.limit) times.shift();
    return true;
  }

  /** Keys with a call still inside the window. */
  get activeKeys(): number {
    return this.admitted.size;
  }

  private sweep(now: number): void {
    this.callsSinceSweep = 0;
    for (const [key, times] of this.admitted) {
      if (times[times.length - 1] <= now - this.windowMs) this.admitted.delete(key);
    }
  }
}
