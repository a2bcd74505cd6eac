import { RestError, RestNetworkError, RestStatusError, RestTimeoutError } from './rest-errors';

/** When and how long the client waits before sending a failed request again. */
export interface RetryPolicy {
  /** Requests per call, the first included. */
  readonly maxAttempts: number;
  /** Ceiling of the first backoff; each retry doubles it. */
  readonly baseDelayMs: number;
  /** Highest ceiling of a backoff. */
  readonly maxDelayMs: number;
  /** A Retry-After longer than this ends the call instead of holding it that long. */
  readonly maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 4,
  baseDelayMs: 250,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 30_000,
};

/** Failures that may pass: network errors, timeouts, 429 and every 5xx. Other 4xx will not change. */
export function isRetryable(error: unknown): error is RestError {
  if (error instanceof RestNetworkError || error instanceof RestTimeoutError) return true;
  return error instanceof RestStatusError && (error.status === 429 || error.status >= 500);
}

/** "Full jitter": uniform in [0, min(maxDelayMs, baseDelayMs x 2^(retry-1))), for retry 1, 2, ... */
export function backoffDelay(retry: number, policy: RetryPolicy, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.floor(random() * ceiling);
}

/**
 * Milliseconds a `Retry-After` header asks for: delta-seconds (`2`, `0.5`) or an HTTP date (time
 * left until it, at least 0). undefined when absent or unreadable.
 */
export function parseRetryAfter(header: string | null, now: number): number | undefined {
  if (header === null) return undefined;
  const text = header.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.ceil(Number(text) * 1000);
  const date = Date.parse(text);
  return Number.isNaN(date) || !/[a-z]/i.test(text) ? undefined : Math.max(0, date - now);
}

/**
 * The wait before attempt `attempt + 1` after `error`, or undefined when the call must end: the
 * failure will not pass, the attempts are used up, or the exchange asks for a longer wait than
 * `maxRetryAfterMs`. A Retry-After is a minimum; the jittered backoff can only lengthen it.
 */
export function retryDelay(
  error: unknown,
  attempt: number,
  policy: RetryPolicy,
  random: () => number,
): number | undefined {
  if (!isRetryable(error) || attempt >= policy.maxAttempts) return undefined;
  const backoff = backoffDelay(attempt, policy, random);
  const retryAfter = error instanceof RestStatusError ? error.retryAfterMs : undefined;
  if (retryAfter === undefined) return backoff;
  return retryAfter > policy.maxRetryAfterMs ? undefined : Math.max(retryAfter, backoff);
}
