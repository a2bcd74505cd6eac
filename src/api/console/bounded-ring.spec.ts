import { BoundedRing } from './bounded-ring';

describe('BoundedRing', () => {
  it('gives the items in either order', () => {
    const ring = new BoundedRing<number>(5);
    [1, 2, 3].forEach((item) => ring.add(item));
    expect(ring.newestFirst()).toEqual([3, 2, 1]);
    expect(ring.oldestFirst()).toEqual([1, 2, 3]);
  });

  it('keeps only the newest `capacity` items', () => {
    const ring = new BoundedRing<number>(3);
    [1, 2, 3, 4, 5, 6, 7].forEach((item) => ring.add(item));
    expect(ring.newestFirst()).toEqual([7, 6, 5]);
    expect(ring.oldestFirst()).toEqual([5, 6, 7]);
  });

  it('refuses a capacity that holds nothing', () => {
    expect(() => new BoundedRing(0)).toThrow(RangeError);
  });
});
