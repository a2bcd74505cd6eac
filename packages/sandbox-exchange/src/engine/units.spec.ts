import fc from 'fast-check';
import { formatUnits, InvalidUnitsError, parseUnits } from './units';

describe('units', () => {
  it.each([
    ['65000.25', 2, 6500025n],
    ['0.000000004321', 18, 4321000000n],
    ['123456789.123456789012345678', 18, 123456789123456789012345678n],
    ['7', 0, 7n],
    ['1.500', 1, 15n],
  ])('parses %s at scale %d', (text, scale, units) => {
    expect(parseUnits(text, scale)).toBe(units);
  });

  it.each([
    ['1.234', 2],
    ['-1', 2],
    ['1e5', 2],
    ['', 2],
  ])('rejects %j at scale %d', (text, scale) => {
    expect(() => parseUnits(text, scale)).toThrow(InvalidUnitsError);
  });

  it('formats without trailing zeros and round-trips every value', () => {
    expect(formatUnits(6500000n, 2)).toBe('65000');
    expect(formatUnits(5n, 18)).toBe('0.000000000000000005');
    expect(formatUnits(-150n, 2)).toBe('-1.5');
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 36n }),
        fc.integer({ min: 0, max: 18 }),
        (units, scale) => {
          expect(parseUnits(formatUnits(units, scale), scale)).toBe(units);
        },
      ),
    );
  });
});
