import { IRetryPolicy, RetryContext } from '@microsoft/signalr';

/** How long an upstream client waits before it tries again, after a failed or lost connection. */
export interface ReconnectDelays {
  /** Ceiling of the first wait; each further try in a row doubles it. */
  readonly initialDelayMs: number;
  /** Highest ceiling of a wait. */
  readonly maxDelayMs: number;
}

export const DEFAULT_RECONNECT_DELAYS: ReconnectDelays = { initialDelayMs: 500, maxDelayMs: 30_000 };

/**
 * Exponential backoff with equal jitter, without end: try n (from 0) waits uniformly in
 * [ceiling / 2, ceiling) with ceiling = min(maxDelayMs, initialDelayMs x 2^n). Half the ceiling is
 * always waited, so that a flapping server is never hammered; the other half spreads out the many
 * clients that were dropped together. It never gives up on the exchange.
 */
export class ReconnectBackoff implements IRetryPolicy {
  readonly delays: ReconnectDelays;

  constructor(
    delays: Partial<ReconnectDelays> = {},
    private readonly random: () => number = Math.random,
  ) {
    this.delays = { ...DEFAULT_RECONNECT_DELAYS, ...delays };
    const { initialDelayMs, maxDelayMs } = this.delays;
    if (!(initialDelayMs > 0) || !(maxDelayMs >= initialDelayMs)) {
      throw new RangeError(
        `reconnect delays need 0 < initialDelayMs <= maxDelayMs, got ${initialDelayMs}, ${maxDelayMs}`,
      );
    }
  }

  /** The wait before try `retry` (0 for the first try after a failure). */
  delay(retry: number): number {
    const { initialDelayMs, maxDelayMs } = this.delays;
    // Beyond 2^30 the ceiling is the maximum anyway; the cap keeps the power finite.
    const ceiling = Math.min(maxDelayMs, initialDelayMs * 2 ** Math.min(Math.max(retry, 0), 30));
    return Math.floor(ceiling / 2 + (this.random() * ceiling) / 2);
  }

  /** The official SignalR client's automatic reconnect: never returns null, so it never stops trying. */
  nextRetryDelayInMilliseconds(context: RetryContext): number {
    return this.delay(context.previousRetryCount);
  }
}
