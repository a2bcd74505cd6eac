import { ApiError } from './api-error';

/** What one request's hit on the limit decided, and the headers that tell the client about it. */
export interface RateDecision {
  readonly limited: boolean;
  readonly headers: Readonly<Record<string, string>>;
  /** Seconds until the client's window ends and its budget is whole again. */
  readonly resetSeconds: number;
}

interface Window {
  start: number;
  count: number;
}

/**
 * Requests per client address in fixed windows: a client's window opens with its first request and
 * holds `limit` requests; beyond them it gets 429 until the window ends. One instance serves both
 * ways a request can be answered (the fast path and Fastify's routes), so a client has one budget.
 * Headers as the common convention has them: `x-ratelimit-limit`, `x-ratelimit-remaining`,
 * `x-ratelimit-reset` (seconds), and `retry-after` on a 429.
 */
export class ClientRateLimit {
  private readonly windows = new Map<string, Window>();
  private nextSweep = 0;
  private readonly limitText: string;

  constructor(
    readonly limit: number,
    private readonly windowMs = 60_000,
  ) {
    this.limitText = String(limit);
  }

  hit(client: string, now = Date.now()): RateDecision {
    if (now >= this.nextSweep) this.sweep(now);
    let window = this.windows.get(client);
    if (!window || now >= window.start + this.windowMs) {
      window = { start: now, count: 0 };
      this.windows.set(client, window);
    }
    window.count++;
    const resetSeconds = Math.ceil((window.start + this.windowMs - now) / 1000);
    const limited = window.count > this.limit;
    const reset = String(resetSeconds);
    return {
      limited,
      resetSeconds,
      headers: limited
        ? {
            'x-ratelimit-limit': this.limitText,
            'x-ratelimit-remaining': '0',
            'x-ratelimit-reset': reset,
            'retry-after': reset,
          }
        : {
            'x-ratelimit-limit': this.limitText,
            'x-ratelimit-remaining': String(this.limit - window.count),
            'x-ratelimit-reset': reset,
          },
    };
  }

  /** The 429 of a limited request. */
  error(decision: RateDecision): ApiError {
    return new ApiError(
      429,
      'too_many_requests',
      `rate limit of ${this.limit} requests per minute exceeded; retry in ${decision.resetSeconds} s`,
    );
  }

  /** Forgets the windows that have ended, once a window, so that past clients do not pile up. */
  private sweep(now: number): void {
    for (const [client, window] of this.windows)
      if (now >= window.start + this.windowMs) this.windows.delete(client);
    this.nextSweep = now + this.windowMs;
  }
}
