/**
 * This process's own requests of one family that the exchange may still be counting: those running
 * and those that ended less than `holdMs` ago. It keeps the process within the limit by itself,
 * whatever a shared budget says, and is all a budget has to go by while its shared state is out of
 * reach.
 */
export class OwnRequestWindow {
  private running = 0;
  /** When each ended request leaves the window, earliest first. */
  private readonly leaving: number[] = [];

  constructor(
    readonly limit: number,
    readonly holdMs: number,
  ) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError('limit must be a positive integer');
    if (!(holdMs >= 0)) throw new RangeError('holdMs must not be negative');
  }

  /**
   * Milliseconds until one more request may start: 0 now, Infinity while `limit` requests run (one
   * of them must end first). `now` is a monotonic time in milliseconds, as for `end`.
   */
  waitMs(now: number): number {
    if (this.counting(now) < this.limit) return 0;
    return this.leaving.length > 0 ? this.leaving[0] - now : Infinity;
  }

  /** Requests the exchange may still be counting at `now`: running or ended less than `holdMs` ago. */
  counting(now: number): number {
    while (this.leaving.length > 0 && this.leaving[0] <= now) this.leaving.shift();
    return this.running + this.leaving.length;
  }

  /** A request starts; call only when `waitMs` is 0. */
  start(): void {
    this.running += 1;
  }

  /** A started request is over; the exchange may count it for `holdMs` more. */
  end(now: number): void {
    if (this.running === 0) throw new Error('no request is running');
    this.running -= 1;
    // The clock is monotonic, so appending keeps the times in order.
    this.leaving.push(now + this.holdMs);
  }
}
