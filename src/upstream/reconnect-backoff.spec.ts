import { ReconnectBackoff } from './reconnect-backoff';

describe('ReconnectBackoff', () => {
  const delays = { initialDelayMs: 100, maxDelayMs: 1_000 };

  it('doubles the ceiling with every try in a row up to the maximum and always waits half of it', () => {
    const low = new ReconnectBackoff(delays, () => 0);
    expect([0, 1, 2, 3, 4, 60, 5000].map((retry) => low.delay(retry))).toEqual([
      50, 100, 200, 400, 500, 500, 500,
    ]);
    const high = new ReconnectBackoff(delays, () => 0.999999);
    expect([0, 1, 2, 3, 4, 60].map((retry) => high.delay(retry))).toEqual([99, 199, 399, 799, 999, 999]);
  });

  it('spreads the waits of one try over the upper half of its ceiling', () => {
    let index = 0;
    const backoff = new ReconnectBackoff(delays, () => index++ / 200);
    const waits = Array.from({ length: 200 }, () => backoff.delay(2));
    expect(Math.min(...waits)).toBe(200);
    expect(Math.max(...waits)).toBe(399);
    expect(new Set(waits).size).toBe(200);
  });

  it('never tells the official SignalR client to stop reconnecting', () => {
    const backoff = new ReconnectBackoff({}, () => 0.5);
    for (const previousRetryCount of [0, 1, 10, 1000, 1_000_000]) {
      const delay = backoff.nextRetryDelayInMilliseconds({
        previousRetryCount,
        elapsedMilliseconds: 86_400_000,
        retryReason: new Error('lost'),
      });
      expect(delay).toBeGreaterThan(0);
      expect(delay).toBeLessThanOrEqual(30_000);
    }
  });

  it('rejects delays that make no sense', () => {
    expect(() => new ReconnectBackoff({ initialDelayMs: 0 })).toThrow(RangeError);
    expect(() => new ReconnectBackoff({ initialDelayMs: 100, maxDelayMs: 50 })).toThrow(RangeError);
  });
});
