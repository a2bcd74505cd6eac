import fc from 'fast-check';
import { PriceLevel } from '../../market/book-update';
import { levelDiff } from './level-diff';

describe('levelDiff', () => {
  it('gives nothing for the same levels', () => {
    const side: PriceLevel[] = [
      ['100', '1'],
      ['99', '2'],
    ];
    expect(levelDiff(side, [...side])).toEqual([]);
  });

  it('gives new levels, changed amounts, and removed prices with amount "0"', () => {
    const before: PriceLevel[] = [
      ['100', '1'],
      ['99', '2'],
      ['98', '3'],
    ];
    const after: PriceLevel[] = [
      ['101', '0.5'],
      ['100', '1'],
      ['99', '2.5'],
    ];
    expect(levelDiff(before, after)).toEqual([
      ['101', '0.5'],
      ['99', '2.5'],
      ['98', '0'],
    ]);
  });

  it('turns any side into any other when applied', () => {
    const side = fc
      .uniqueArray(fc.tuple(fc.integer({ min: 1, max: 30 }), fc.integer({ min: 1, max: 5 })), {
        selector: ([price]) => price,
      })
      .map((levels) => levels.map(([price, amount]): PriceLevel => [String(price), String(amount)]));
    fc.assert(
      fc.property(side, side, (before, after) => {
        const book = new Map(before);
        for (const [price, amount] of levelDiff(before, after)) {
          if (amount === '0') book.delete(price);
          else book.set(price, amount);
        }
        expect(book).toEqual(new Map(after));
      }),
    );
  });
});
