import { publishedLevel } from './published-level';
import { PublishedLevels } from './published-levels';

describe('PublishedLevels', () => {
  const scales = { priceScale: 2, amountScale: 3 };

  it('writes each level as publishedLevel does, the same array again for an unchanged level', () => {
    const levels = new PublishedLevels(scales);
    const first = levels.of(['100.5', '2']);
    expect(first).toEqual(publishedLevel(['100.5', '2'], scales));
    expect(levels.of(['100.5', '2'])).toBe(first);
    expect(levels.of(['100.5', '0'])).toEqual(['100.50', '0']);
    expect(levels.of(['100.5', '2.25'])).toEqual(['100.50', '2.250']);
  });

  it('stays right past the number of prices it remembers', () => {
    const levels = new PublishedLevels(scales);
    for (let price = 1; price <= 10_000; price++)
      expect(levels.of([String(price), '1'])).toEqual([`${price}.00`, '1.000']);
    expect(levels.of(['1', '1'])).toEqual(['1.00', '1.000']);
  });
});
