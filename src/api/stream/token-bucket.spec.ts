import { TokenBucket } from './token-bucket';

describe('TokenBucket', () => {
  it('gives a burst at once, then refills at its rate up to the burst', () => {
    let now = 0;
    const bucket = new TokenBucket(4, 3, () => now);
    expect([bucket.take(), bucket.take(), bucket.take(), bucket.take()]).toEqual([true, true, true, false]);
    now = 200;
    expect(bucket.take()).toBe(false);
    now = 250;
    expect([bucket.take(), bucket.take()]).toEqual([true, false]);
    now = 10_000;
    expect([bucket.take(), bucket.take(), bucket.take(), bucket.take()]).toEqual([true, true, true, false]);
  });
});
