/** How long the client waits before connecting again after a failure. */
export interface ReconnectBackoff {
  /** Ceiling of the wait after the first failure; each further failure in a row doubles it. */
  readonly initialDelayMs: number;
  /** Highest ceiling. */
  readonly maxDelayMs: number;
}

export const DEFAULT_RECONNECT_BACKOFF: ReconnectBackoff = { initialDelayMs: 500, maxDelayMs: 30_000 };

/**
 * The wait before the next attempt after `failures` failures in a row (1, 2, ...): uniform in
 * [ceiling / 2, ceiling) with ceiling = min(maxDelayMs, initialDelayMs x 2^(failures - 1)). Half of
 * the ceiling is always waited, so that a flapping server is never hammered; the other half is
 * jitter, so that many clients dropped at once do not come back at once.
 */
export function reconnectDelay(failures: number, backoff: ReconnectBackoff, random: () => number): number {
  const exponent = Math.min(Math.max(failures, 1) - 1, 30);
  const ceiling = Math.min(backoff.maxDelayMs, backoff.initialDelayMs * 2 ** exponent);
  return Math.floor(ceiling / 2 + (random() * ceiling) / 2);
}
