import { ReconnectBackoff } from './reconnect-backoff';

describe('ReconnectBackoff', () => {
  it('doubles the ceiling with every try in a row up to the maximum, jittered below it', () => {
    const top = new ReconnectBackoff({ initialDelayMs: 100, maxDelayMs: 1000 }, () => 0.999999);
    expect([0, 1, 2, 3, 4, 5, 60, 5000].map((retry) => top.delay(retry))).toEqual([
      99, 199, 399, 799, 999, 999, 999, 999,
    ]);
    const bottom = new ReconnectBackoff({ initialDelayMs: 100, maxDelayMs: 1000 }, () => 0);
    expect(bottom.delay(3)).toBe(0);
    const half = new ReconnectBackoff({ initialDelayMs: 100, maxDelayMs: 1000 }, () => 0.5);
    expect(half.delay(2)).toBe(200);
  });

  it('never tells the official client to stop reconnecting', () => {
    const backoff = new ReconnectBackoff({}, () => 0.5);
    for (const previousRetryCount of [0, 1, 10, 1000, 1_000_000]) {
      const delay = backoff.nextRetryDelayInMilliseconds({
        previousRetryCount,
        elapsedMilliseconds: 86_400_000,
        retryReason: new Error('lost'),
      });
      expect(delay).toEqual(expect.any(Number));
      expect(delay).toBeLessThanOrEqual(15_000);
    }
  });

  it('defaults to 500 ms first and 30 s at most', () => {
    const backoff = new ReconnectBackoff({}, () => 0.999999);
    expect(backoff.delay(0)).toBe(499);
    expect(backoff.delay(100)).toBe(29_999);
  });

  it('rejects delays that make no sense', () => {
    expect(() => new ReconnectBackoff({ initialDelayMs: 0 })).toThrow(RangeError);
    expect(() => new ReconnectBackoff({ initialDelayMs: 100, maxDelayMs: 50 })).toThrow(RangeError);
  });
});
