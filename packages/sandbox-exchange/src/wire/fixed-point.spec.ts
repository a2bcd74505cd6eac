import Big from 'big.js';
import fc from 'fast-check';
import { formatUnits, pow10 } from './fixed-point';

/** Units at a scale from plain decimal text, written here so the round trip checks formatUnits alone. */
function unitsOf(text: string, scale: number): bigint {
  const negative = text.startsWith('-');
  const [whole, fraction = ''] = (negative ? text.slice(1) : text).split('.');
  const units = BigInt(whole + fraction.padEnd(scale, '0'));
  return negative ? -units : units;
}

describe('pow10', () => {
  it('gives exact powers of ten, beyond 2^53 and beyond the cached ones', () => {
    expect(pow10(0)).toBe(1n);
    expect(pow10(2)).toBe(100n);
    expect(pow10(18)).toBe(1_000_000_000_000_000_000n);
    expect(pow10(40)).toBe(BigInt(`1${'0'.repeat(40)}`));
  });

  it.each([-1, 1.5, NaN, Infinity])('refuses the exponent %p', (exponent) => {
    expect(() => pow10(exponent)).toThrow(RangeError);
  });
});

describe('formatUnits', () => {
  it('writes the prices and amounts of the exchange samples', () => {
    expect(formatUnits(30_922_580n, 8)).toBe('0.3092258');
    expect(formatUnits(1_734_264n, 8)).toBe('0.01734264');
    expect(formatUnits(3_842_855n, 3)).toBe('3842.855');
    expect(formatUnits(2n, 8)).toBe('0.00000002');
    expect(formatUnits(10n ** 16n * 10n ** 8n, 8)).toBe('10000000000000000');
  });

  it('drops trailing zeros, and the point with them', () => {
    expect(formatUnits(50n, 2)).toBe('0.5');
    expect(formatUnits(1_200n, 2)).toBe('12');
    expect(formatUnits(0n, 18)).toBe('0');
    expect(formatUnits(12n, 0)).toBe('12');
  });

  it('puts the minus sign first below zero', () => {
    expect(formatUnits(-5n, 1)).toBe('-0.5');
    expect(formatUnits(-1_500n, 3)).toBe('-1.5');
    expect(formatUnits(-7n, 0)).toBe('-7');
  });

  it('keeps every digit of 18-decimal amounts', () => {
    expect(formatUnits(123_456_789_012_345_678_901n, 18)).toBe('123.456789012345678901');
    expect(formatUnits(1n, 18)).toBe('0.000000000000000001');
  });

  const units = fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n });
  const scale = fc.integer({ min: 0, max: 24 });

  it('is the value big.js gives for units × 10^-scale', () => {
    fc.assert(
      fc.property(units, scale, (count, at) => {
        expect(formatUnits(count, at)).toBe(new Big(`${count}e-${at}`).toFixed());
      }),
    );
  });

  it('reads back to the same units, in canonical form', () => {
    fc.assert(
      fc.property(units, scale, (count, at) => {
        const text = formatUnits(count, at);
        expect(text).toMatch(/^-?(0|[1-9]\d*)(\.\d*[1-9])?$/);
        expect(text).not.toBe('-0');
        expect(unitsOf(text, at)).toBe(count);
      }),
    );
  });
});
