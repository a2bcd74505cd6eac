import fc from 'fast-check';
import { MarketInfo } from '../../market/market-info';
import { Trade } from '../../market/trade';
import { TradeColumns } from '../../market/trade-columns';
import { figuresNewestFirst, tradeFigures } from './trade-figures';

const SEED = 20261127;

function market(priceScale: number, amountScale: number): MarketInfo {
  return { instrument: 'btc_usdt', priceScale, amountScale } as MarketInfo;
}

/** A decimal text, mostly of a few digits as prices and amounts are, some past what a double holds. */
const decimalText = fc
  .record({
    digits: fc.oneof(fc.bigInt({ min: 0n, max: 10n ** 9n }), fc.bigInt({ min: 0n, max: 10n ** 20n })),
    scale: fc.integer({ min: 0, max: 12 }),
  })
  .map(({ digits, scale }) => {
    const text = digits.toString().padStart(scale + 1, '0');
    return scale === 0 ? text : `${text.slice(0, text.length - scale)}.${text.slice(text.length - scale)}`;
  });

describe('figuresNewestFirst', () => {
  it('gives, newest first, exactly the figures tradeFigures gives each trade', () => {
    const trade: fc.Arbitrary<Trade> = fc.record({
      id: fc.oneof(fc.nat().map(String), fc.constant('99999999999999999999')),
      instrument: fc.constant('btc_usdt'),
      price: decimalText,
      amount: decimalText,
      side: fc.constantFrom('buy' as const, 'sell' as const),
      time: fc.nat(),
    });
    fc.assert(
      fc.property(
        fc.array(trade, { maxLength: 20 }),
        fc.integer({ min: 0, max: 10 }),
        fc.integer({ min: 0, max: 10 }),
        (trades, priceScale, amountScale) => {
          const listed = market(priceScale, amountScale);
          const expected = trades.map((item) => tradeFigures(listed, item)).reverse();
          expect(figuresNewestFirst(listed, TradeColumns.of(trades))).toEqual(expected);
        },
      ),
      { seed: SEED, numRuns: 2_000 },
    );
  });

  it('gives none for no trades', () => {
    expect(figuresNewestFirst(market(2, 8), new TradeColumns())).toEqual([]);
  });
});
