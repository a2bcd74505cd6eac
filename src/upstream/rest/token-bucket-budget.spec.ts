import { RestFamily } from './request-budget';
import { requestMany as requestManyAt } from './testing/request-many';
import { TokenBucketBudget } from './token-bucket-budget';

describe('TokenBucketBudget', () => {
  let start: number;
  const elapsed = () => performance.now() - start;

  beforeEach(() => {
    jest.useFakeTimers();
    start = performance.now();
  });
  afterEach(() => jest.useRealTimers());

  const requestMany = (budget: TokenBucketBudget, family: RestFamily, count: number, durationMs = 0) =>
    requestManyAt(budget, family, count, elapsed, durationMs);

  it('reports the requests counting and waiting, until their window has passed', async () => {
    const budget = new TokenBucketBudget({ marginMs: 0 });
    const first = await budget.acquire('frontoffice');
    void budget.acquire('frontoffice');
    expect(await budget.usage()).toEqual([
      { family: 'frontoffice', limit: 1, counting: 1, waiting: 1, scope: 'process' },
      { family: 'marketdata', limit: 2, counting: 0, waiting: 0, scope: 'process' },
    ]);
    first.release();
    await jest.advanceTimersByTimeAsync(999);
    expect((await budget.usage())[0]).toMatchObject({ counting: 1, waiting: 1 });
    await jest.advanceTimersByTimeAsync(1);
    expect((await budget.usage())[0]).toMatchObject({ counting: 1, waiting: 0 });
  });

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

  it('counts the window from the end of each request, since the exchange counts it on arrival', async () => {
    const granted = requestMany(new TokenBucketBudget({ marginMs: 0 }), 'frontoffice', 3, 400);
    await jest.advanceTimersByTimeAsync(5000);
    expect(granted).toEqual([0, 1400, 2800]);
  });

  it('never lets more than the limit fall in any one-second window, whatever the arrivals and durations', async () => {
    const budget = new TokenBucketBudget({ marginMs: 0 });
    /** Each request as [grant, release]: the exchange counts it at some moment in between. */
    const spans: [number, number][] = [];
    const arrivals = [0, 0, 0, 300, 700, 999, 1000, 1001, 2500, 2500, 2501, 4000];
    const durations = [450, 0, 30, 999, 1, 0, 250, 10, 700, 0, 5, 60];
    arrivals.forEach((arrival, index) => {
      setTimeout(() => {
        void budget.acquire('marketdata').then((permit) => {
          const granted = elapsed();
          setTimeout(() => {
            spans.push([granted, elapsed()]);
            permit.release();
          }, durations[index]);
        });
      }, arrival);
    });
    await jest.advanceTimersByTimeAsync(30_000);
    expect(spans).toHaveLength(arrivals.length);
    // Three requests can be counted inside one window (t - 1000, t] exactly when the latest of their
    // grants comes less than 1000 ms after the earliest of their releases.
    for (const [i, a] of spans.entries()) {
      for (const [j, b] of spans.entries()) {
        for (const c of spans.slice(Math.max(i, j) + 1)) {
          if (j <= i) continue;
          expect(Math.max(a[0], b[0], c[0]) - Math.min(a[1], b[1], c[1])).toBeGreaterThanOrEqual(1000);
        }
      }
    }
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
    for (const name of ['a', 'b', 'c']) {
      void budget.acquire('frontoffice').then((permit) => {
        order.push(name);
        permit.release();
      });
    }
    await jest.advanceTimersByTimeAsync(2000);
    expect(order).toEqual(['a', 'b', 'c']);
  });

  it('ignores a second release of the same permit', async () => {
    const budget = new TokenBucketBudget({ marginMs: 0 });
    const permit = await budget.acquire('frontoffice');
    permit.release();
    permit.release();
    const granted = requestMany(budget, 'frontoffice', 2);
    await jest.advanceTimersByTimeAsync(3000);
    expect(granted).toEqual([1000, 2000]);
  });

  it('rejects an aborted wait with the reason and gives its turn to the next waiter', async () => {
    const budget = new TokenBucketBudget({ marginMs: 0 });
    (await budget.acquire('frontoffice')).release();
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
    const budget = new TokenBucketBudget({ limits: { frontoffice: 3 }, marginMs: 0 });
    const granted = requestMany(budget, 'frontoffice', 4);
    await jest.advanceTimersByTimeAsync(1000);
    expect(granted).toEqual([0, 0, 0, 1000]);
    expect(() => new TokenBucketBudget({ limits: { marketdata: 0 } })).toThrow(RangeError);
    expect(() => new TokenBucketBudget({ limits: { marketdata: 1.5 } })).toThrow(RangeError);
  });
});
