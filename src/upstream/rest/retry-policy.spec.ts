import { RestBodyError, RestNetworkError, RestStatusError, RestTimeoutError } from './rest-errors';
import { backoffDelay, DEFAULT_RETRY_POLICY, isRetryable, parseRetryAfter, retryDelay } from './retry-policy';

const URL_ = 'http://x/frontoffice/api/info';
const status = (code: number, retryAfterMs?: number) =>
  new RestStatusError(URL_, 1, code, [], '', retryAfterMs);
const policy = { maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 1000, maxRetryAfterMs: 5000 };

describe('isRetryable', () => {
  it('retries network errors, timeouts, 429 and 5xx only', () => {
    expect(isRetryable(new RestNetworkError(URL_, 1, new Error('ECONNRESET')))).toBe(true);
    expect(isRetryable(new RestTimeoutError(URL_, 1, 100))).toBe(true);
    for (const code of [429, 500, 502, 503, 504]) expect(isRetryable(status(code))).toBe(true);
    for (const code of [400, 401, 403, 404, 405, 406]) expect(isRetryable(status(code))).toBe(false);
    expect(isRetryable(new RestBodyError(URL_, 1, ['x']))).toBe(false);
    expect(isRetryable(new Error('bug'))).toBe(false);
  });
});

describe('backoffDelay', () => {
  it('draws uniformly below a ceiling that doubles per retry up to the maximum', () => {
    expect([1, 2, 3, 4, 5, 10].map((retry) => backoffDelay(retry, policy, () => 0.999999))).toEqual([
      99, 199, 399, 799, 999, 999,
    ]);
    expect(backoffDelay(3, policy, () => 0)).toBe(0);
    expect(backoffDelay(3, policy, () => 0.5)).toBe(200);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2024-03-14T09:00:00Z');

  it('reads delta-seconds', () => {
    expect(parseRetryAfter('2', now)).toBe(2000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('0.5', now)).toBe(500);
  });

  it('reads an HTTP date as the time left until it', () => {
    expect(parseRetryAfter('Thu, 14 Mar 2024 09:00:03 GMT', now)).toBe(3000);
    expect(parseRetryAfter('Thu, 14 Mar 2024 08:00:00 GMT', now)).toBe(0);
  });

  it('ignores what it cannot read', () => {
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
  });
});

describe('retryDelay', () => {
  it('backs off with jitter while attempts remain', () => {
    expect(retryDelay(status(503), 1, policy, () => 0.5)).toBe(50);
    expect(retryDelay(status(503), 3, policy, () => 0.5)).toBe(200);
    expect(retryDelay(status(503), 4, policy, () => 0.5)).toBeUndefined();
  });

  it('waits at least what Retry-After asks for', () => {
    expect(retryDelay(status(429, 1500), 1, policy, () => 0.5)).toBe(1500);
    expect(retryDelay(status(429, 0), 3, policy, () => 0.5)).toBe(200);
  });

  it('gives up when Retry-After asks for longer than the policy allows', () => {
    expect(retryDelay(status(503, 5001), 1, policy, () => 0)).toBeUndefined();
  });

  it('does not retry what will not pass', () => {
    expect(retryDelay(status(404), 1, policy, () => 0)).toBeUndefined();
  });

  it('has bounded defaults', () => {
    expect(DEFAULT_RETRY_POLICY.maxAttempts).toBeGreaterThan(1);
    expect(DEFAULT_RETRY_POLICY.maxDelayMs).toBeGreaterThanOrEqual(DEFAULT_RETRY_POLICY.baseDelayMs);
  });
});
