import fc from 'fast-check';
import { SlidingWindowLimiter } from './sliding-window-limiter';

describe('SlidingWindowLimiter', () => {
  it('admits one call per second and refuses a second within it', () => {
    const limiter = new SlidingWindowLimiter(1, 1000);
    expect(limiter.tryAcquire('a', 0)).toBe(true);
    expect(limiter.tryAcquire('a', 999.9)).toBe(false);
    expect(limiter.tryAcquire('a', 1000)).toBe(true);
  });

  it('admits two per second over a sliding window, not per calendar second', () => {
    const limiter = new SlidingWindowLimiter(2, 1000);
    expect(limiter.tryAcquire('a', 900)).toBe(true);
    expect(limiter.tryAcquire('a', 950)).toBe(true);
    // A fixed window would restart at 1000; the sliding one still holds both calls.
    expect(limiter.tryAcquire('a', 1000)).toBe(false);
    expect(limiter.tryAcquire('a', 1899)).toBe(false);
    expect(limiter.tryAcquire('a', 1900)).toBe(true);
    expect(limiter.tryAcquire('a', 1920)).toBe(false);
    expect(limiter.tryAcquire('a', 1950)).toBe(true);
  });

  it('does not count refused calls', () => {
    const limiter = new SlidingWindowLimiter(1, 1000);
    expect(limiter.tryAcquire('a', 0)).toBe(true);
    for (let t = 100; t < 1000; t += 100) expect(limiter.tryAcquire('a', t)).toBe(false);
    expect(limiter.tryAcquire('a', 1000)).toBe(true);
  });

  it('keeps keys apart', () => {
    const limiter = new SlidingWindowLimiter(1, 1000);
    expect(limiter.tryAcquire('a', 0)).toBe(true);
    expect(limiter.tryAcquire('b', 1)).toBe(true);
    expect(limiter.tryAcquire('a', 2)).toBe(false);
    expect(limiter.tryAcquire('b', 3)).toBe(false);
  });

  it('forgets keys that have been idle for a window', () => {
    const limiter = new SlidingWindowLimiter(1, 1000, 3);
    limiter.tryAcquire('a', 0);
    limiter.tryAcquire('b', 0);
    expect(limiter.activeKeys).toBe(2);
    limiter.tryAcquire('c', 1500);
    expect(limiter.activeKeys).toBe(1);
    expect(limiter.tryAcquire('a', 1600)).toBe(true);
  });

  it('never admits more than the limit in any window (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.integer({ min: 0, max: 400 }), { minLength: 1, maxLength: 60 }),
        (limit, gaps) => {
          const limiter = new SlidingWindowLimiter(limit, 1000);
          const admitted: number[] = [];
          let now = 0;
          for (const gap of gaps) {
            now += gap;
            const inWindow = admitted.filter((time) => time > now - 1000).length;
            const allowed = limiter.tryAcquire('k', now);
            // Admitted exactly when the window still has room.
            expect(allowed).toBe(inWindow < limit);
            if (allowed) admitted.push(now);
          }
        },
      ),
    );
  });

  it('rejects nonsensical settings', () => {
    expect(() => new SlidingWindowLimiter(0, 1000)).toThrow(RangeError);
    expect(() => new SlidingWindowLimiter(1.5, 1000)).toThrow(RangeError);
    expect(() => new SlidingWindowLimiter(1, 0)).toThrow(RangeError);
  });
});
