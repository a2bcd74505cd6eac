import { networkCause } from '../../logging/network-cause';

/** One entry of the exchange's error body `{ errors: [{ code, message }] }` (spec 7.1). */
export interface ExchangeErrorEntry {
  readonly code: string;
  readonly message: string;
}

/** A REST call to the exchange that failed; `attempts` counts the requests sent for it. */
export abstract class RestError extends Error {
  constructor(
    message: string,
    readonly url: string,
    readonly attempts: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The exchange answered with a status other than 2xx. */
export class RestStatusError extends RestError {
  constructor(
    url: string,
    attempts: number,
    readonly status: number,
    /** The entries of the exchange's error body; empty when the body had another shape. */
    readonly errors: readonly ExchangeErrorEntry[],
    /** The body as received (cut after a few thousand characters). */
    readonly bodyText: string,
    /** How long the exchange asked us to wait (Retry-After), in milliseconds. */
    readonly retryAfterMs?: number,
  ) {
    const detail = errors
      .map((entry) => (entry.code ? `${entry.code}: ${entry.message}` : entry.message))
      .join('; ');
    super(`GET ${url} answered ${status}${detail ? ` (${detail})` : ''}`, url, attempts);
  }
}

/** No complete answer within the per-attempt timeout. */
export class RestTimeoutError extends RestError {
  constructor(
    url: string,
    attempts: number,
    readonly timeoutMs: number,
  ) {
    super(`GET ${url} got no complete answer within ${timeoutMs} ms`, url, attempts);
  }
}

/**
 * The innermost reason of a fetch failure ("fetch failed" wraps the socket error), read by shape:
 * errors from fetch may come from another realm, where instanceof Error does not hold.
 */
function describeCause(cause: unknown): string {
  const parts: string[] = [];
  for (let current = cause, depth = 0; current !== undefined && depth < 4; depth++) {
    if (typeof current !== 'object' || current === null) {
      parts.push(String(current));
      break;
    }
    const { message, code } = current as { message?: unknown; code?: unknown };
    if (typeof message === 'string' && message !== '') parts.push(message);
    else if (typeof code === 'string') parts.push(code);
    current = (current as { cause?: unknown }).cause;
  }
  return parts.join(': ') || 'unknown error';
}

/** The request did not reach the exchange or the connection broke (refused, reset, DNS...). */
export class RestNetworkError extends RestError {
  constructor(url: string, attempts: number, cause: unknown) {
    const plain = networkCause(cause);
    super(
      plain
        ? `GET ${url} failed: exchange unreachable: ${plain}`
        : `GET ${url} failed: ${describeCause(cause)}`,
      url,
      attempts,
      { cause },
    );
  }
}

/** A 2xx answer whose body is not JSON or not shaped as documented. */
export class RestBodyError extends RestError {
  constructor(
    url: string,
    attempts: number,
    readonly problems: readonly string[],
    cause?: unknown,
  ) {
    super(`GET ${url} answered a malformed body: ${problems.join('; ')}`, url, attempts, { cause });
  }
}
