/** How long a connection has been behind without once catching up, against the most it may be. */
export class BehindWatch {
  private since?: number;

  constructor(private readonly maxBehindMs: number) {}

  /** The connection is behind at `now`; only the first call since it caught up starts the clock. */
  behind(now: number): void {
    this.since ??= now;
  }

  caughtUp(): void {
    this.since = undefined;
  }

  /** Whether at `now` it has been behind for longer than allowed. */
  tooLong(now: number): boolean {
    return this.since !== undefined && now - this.since >= this.maxBehindMs;
  }
}
