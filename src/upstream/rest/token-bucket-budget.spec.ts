import { RestFamily } from './request-budget';
import { TokenBucketBudget } from './token-bucket-budget';

/** Most grants inside any half-open window (t - windowMs, t]. */
function mostInAnyWindow(times: readonly number[], windowMs: number): number {
  let most = 0;
  for (const end of times) most = Math.max(most, times.filter((t) => t > end - windowMs && t <= end).length);
  return most;
}

describe('TokenBucketBudget', () => {
  let start: number;

  beforeEach(() => {
    jest.useFakeTimers();
    start = performance.now();
  });
  afterEach(() => jest.useRealTimers());

  /** Starts `count` acquires of one family and records when each is granted, relative to the start. */
  function requestMany(budget: TokenBucketBudget, family: RestFamily, count: number): number[] {
    const granted: number[] = [];
    for (let i = 0; i < count; i++) {
      void budget.acquire(family).then(() => granted.push(performance.now() - start));
    }
    return granted;
  }

  it('grants one /frontoffice/ request per window plus margin', async () => {
    const granted = requestMany(new TokenBucketBudget({ marginMs: 100 }), 'frontoffice', 4);
    await jest.advanceTimersByTimeAsync(5000);
    expect(granted).toEqual([0, 1100, 2200, 3300]);
  });

  it('grants two /marketdata/ requests at once, then two per window plus margin', async () => {
    const granted = requestMany(new TokenBucketBudget({ marginMs: 100 }), 'marketdata', 6);
    await jest.advanceTimersByTimeAsync(5000);
    expect(granted).toEqual([0, 0, 1100, 1100, 2200, 2200]);
  });

  it('never admits more than the limit in any one-second window, whatever the arrival pattern', async () => {
    const budget = new TokenBucketBudget({ marginMs: 0 });
    const granted: number[] = [];
    const arrivals = [0, 0, 0, 300, 700, 999, 1000, 1001, 2500, 2500, 2501, 4000];
    for (const arrival of arrivals) {
      setTimeout(
        () => void budget.acquire('marketdata').then(() => granted.push(performance.now() - start)),
        arrival,
      );
    }
    await jest.advanceTimersByTimeAsync(20_000);
    expect(granted).toHaveLength(arrivals.length);
    expect(mostInAnyWindow(granted, 1000)).toBe(2);
    expect(granted).toEqual([...granted].sort((a, b) => a - b));
  });

  it('does not refill beyond the limit after a quiet period', async () => {
    const budget = new TokenBucketBudget({ marginMs: 0 });
    await jest.advanceTimersByTimeAsync(60_000);
    start = performance.now();
    const granted = requestMany(budget, 'marketdata', 3);
    await jest.advanceTimersByTimeAsync(999);
    expect(granted).toEqual([0, 0]);
    await jest.advanceTimersByTimeAsync(1);
    expect(granted).toEqual([0, 0, 1000]);
  });

  it('keeps the families independent', async () => {
    const budget = new TokenBucketBudget({ marginMs: 0 });
    const frontoffice = requestMany(budget, 'frontoffice', 3);
    const marketdata = requestMany(budget, 'marketdata', 2);
    await jest.advanceTimersByTimeAsync(0);
    expect(frontoffice).toEqual([0]);
    expect(marketdata).toEqual([0, 0]);
  });

  it('serves waiters in arrival order', async () => {
    const budget = new TokenBucketBudget({ marginMs: 0 });
    const order: string[] = [];
    for (const name of ['a', 'b', 'c']) void budget.acquire('frontoffice').then(() => order.push(name));
    await jest.advanceTimersByTimeAsync(2000);
    expect(order).toEqual(['a', 'b', 'c']);
  });

  it('rejects an aborted wait with the reason and gives its turn to the next waiter', async () => {
    const budget = new TokenBucketBudget({ marginMs: 0 });
    await budget.acquire('frontoffice');
    const controller = new AbortController();
    const abandoned = budget.acquire('frontoffice', controller.signal);
    const next = requestMany(budget, 'frontoffice', 1);
    await jest.advanceTimersByTimeAsync(400);
    const reason = new Error('shutting down');
    controller.abort(reason);
    await expect(abandoned).rejects.toBe(reason);
    await jest.advanceTimersByTimeAsync(600);
    expect(next).toEqual([1000]);
  });

  it('rejects at once when the signal is already aborted and uses up nothing', async () => {
    const budget = new TokenBucketBudget();
    await expect(budget.acquire('frontoffice', AbortSignal.abort('stop'))).rejects.toBe('stop');
    const granted = requestMany(budget, 'frontoffice', 1);
    await jest.advanceTimersByTimeAsync(0);
    expect(granted).toEqual([0]);
  });

  it('applies configured limits and rejects impossible ones', async () => {
    const granted = requestMany(
      new TokenBucketBudget({ limits: { frontoffice: 3 }, marginMs: 0 }),
      'frontoffice',
      4,
    );
    await jest.advanceTimersByTimeAsync(1000);
    expect(granted).toEqual([0, 0, 0, 1000]);
    expect(() => new TokenBucketBudget({ limits: { marketdata: 0 } })).toThrow(RangeError);
    expect(() => new TokenBucketBudget({ limits: { marketdata: 1.5 } })).toThrow(RangeError);
  });
});
