import { toFixedScale } from '../decimal';
import { publishedDecimal, publishedLevel } from './published-level';

describe('publishedDecimal', () => {
  it.each([
    ['5', 2, '5.00'],
    ['5.1', 2, '5.10'],
    ['0.5', 3, '0.500'],
    ['12', 0, '12'],
    ['0', 2, '0.00'],
  ])('writes %s at scale %i as the listing does: %s', (canonical, scale, written) => {
    expect(publishedDecimal(canonical, scale)).toBe(written);
    expect(publishedDecimal(canonical, scale)).toBe(toFixedScale(canonical, scale));
  });

  it('keeps the decimals beyond the scale rather than rounding them away', () => {
    expect(publishedDecimal('1.125', 2)).toBe('1.125');
    expect(publishedDecimal('1.13', 2)).toBe('1.13');
    expect(publishedDecimal('0.0004', 3)).toBe('0.0004');
    expect(publishedDecimal('7.5', 0)).toBe('7.5');
  });
});

describe('publishedLevel', () => {
  const scales = { priceScale: 2, amountScale: 4 };

  it('writes the price at the price scale and the amount at the amount scale', () => {
    expect(publishedLevel(['100.5', '2'], scales)).toEqual(['100.50', '2.0000']);
  });

  it('leaves the amount of a removal "0"', () => {
    expect(publishedLevel(['100.5', '0'], scales)).toEqual(['100.50', '0']);
  });
});
