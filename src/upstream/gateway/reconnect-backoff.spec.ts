import { reconnectDelay } from './reconnect-backoff';

describe('reconnect backoff', () => {
  const backoff = { initialDelayMs: 100, maxDelayMs: 1_000 };

  it('doubles the ceiling per failure up to the cap and always waits at least half of it', () => {
    expect([1, 2, 3, 4, 5, 50].map((failures) => reconnectDelay(failures, backoff, () => 0))).toEqual([
      50, 100, 200, 400, 500, 500,
    ]);
    expect([1, 2, 3, 4, 5].map((failures) => reconnectDelay(failures, backoff, () => 0.999999))).toEqual([
      99, 199, 399, 799, 999,
    ]);
  });

  it('spreads the waits of one failure count over the upper half of the ceiling', () => {
    const delays = Array.from({ length: 200 }, (_, index) => reconnectDelay(3, backoff, () => index / 200));
    expect(Math.min(...delays)).toBe(200);
    expect(Math.max(...delays)).toBe(399);
    expect(new Set(delays).size).toBe(200);
  });
});
