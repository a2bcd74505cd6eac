import fc from 'fast-check';
import { formatFixed, toDecimal, toFixedScale } from './decimal';
import { productAtScale, unitsAtScale, unitsText } from './scaled-units';

const SEED = 20261127;

describe('scaled units', () => {
  it('write units at their scale', () => {
    expect(unitsText(270005, 1)).toBe('27000.5');
    expect(unitsText(25, 3)).toBe('0.025');
    expect(unitsText(0, 2)).toBe('0.00');
    expect(unitsText(7, 0)).toBe('7');
  });

  it('pad or round to a scale as formatFixed does, half away from zero', () => {
    expect(unitsAtScale(270005, 1, 3)).toBe('27000.500');
    expect(unitsAtScale(12, 0, 2)).toBe('12.00');
    expect(unitsAtScale(125, 3, 2)).toBe('0.13');
    expect(unitsAtScale(124, 3, 2)).toBe('0.12');
    expect(unitsAtScale(5, 1, 0)).toBe('1');
    expect(unitsAtScale(4, 1, 0)).toBe('0');
    expect(unitsAtScale(Number.MAX_SAFE_INTEGER, 16, 0)).toBe('1');
    expect(unitsAtScale(Number.MAX_SAFE_INTEGER, 30, 2)).toBe('0.00');
  });

  it('multiply past 2^53 in two limbs, carrying a rounding into the high one', () => {
    // 50,000.00 times 1.23456789: 617283945000000000 units at scale 10.
    expect(productAtScale(5_000_000, 2, 123_456_789, 8, 2)).toBe('61728.39');
    expect(productAtScale(89_999_999, 0, 99_999_999_999, 0, 0)).toBe('8999999899910000001');
    expect(productAtScale(89_999_999, 0, 99_999_999_999, 0, 2)).toBe('8999999899910000001.00');
    expect(productAtScale(89_999_999, 1, 99_999_999_999, 8, 0)).toBe('8999999900');
    expect(productAtScale(89_999_999, 0, 99_999_999_999, 10, 2)).toBe('899999989.99');
    expect(productAtScale(89_999_999, 0, 99_999_999_999, 17, 2)).toBe('90.00');
    expect(productAtScale(1e15, 0, 1e15, 0, 0)).toBeUndefined();
  });

  it('give the exact text of any decimal a double holds, and of a product of a factor up to 9e7', () => {
    const decimal = fc.record({
      units: fc.oneof(
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: 0, max: 90_000_000 }),
        fc.constantFrom(99_999_999, 100_000_000, 5_000_000_000, 10 ** 15),
        fc.maxSafeNat(),
      ),
      scale: fc.integer({ min: 0, max: 24 }),
    });
    fc.assert(
      fc.property(decimal, decimal, fc.integer({ min: 0, max: 18 }), (a, b, target) => {
        const text = unitsText(a.units, a.scale);
        expect(unitsAtScale(a.units, a.scale, target)).toBe(toFixedScale(text, target));
        const product = productAtScale(a.units, a.scale, b.units, b.scale, target);
        const exact = formatFixed(toDecimal(text).times(unitsText(b.units, b.scale)), target);
        const smaller = Math.min(a.units, b.units);
        if (product !== undefined || smaller * 1e8 <= Number.MAX_SAFE_INTEGER) expect(product).toBe(exact);
      }),
      { seed: SEED, numRuns: 5_000 },
    );
  });
});
