import { PriceLevel } from '../book-update';
import { bookLiquidity } from './book-liquidity';

const levels = (...pairs: [string, string][]): PriceLevel[] => pairs;

describe('bookLiquidity', () => {
  it('takes the levels within 2 % of the mid, the band edges included', () => {
    // mid 100: asks up to 102, bids down to 98.
    const liquidity = bookLiquidity(
      levels(['99', '1'], ['98', '2'], ['97.99', '100']),
      levels(['101', '0.5'], ['102', '3'], ['102.01', '100']),
    );
    expect(liquidity.mid?.toExactText(8)).toBe('100');
    expect(liquidity.spreadPercent?.toFixed(2)).toBe('2.00');
    expect(liquidity.plusDepth).toEqual({ base: '3.5', quote: '356.5' });
    expect(liquidity.minusDepth).toEqual({ base: '3', quote: '295' });
    expect(liquidity.crossed).toBe(false);
  });

  it('halves the mid exactly, with one decimal more than the prices', () => {
    const liquidity = bookLiquidity(
      levels(['0.000000000000000001', '1']),
      levels(['0.000000000000000002', '1']),
    );
    expect(liquidity.mid?.toExactText(30)).toBe('0.0000000000000000015');
    expect(liquidity.spreadPercent?.toFixed(2)).toBe('66.67');
  });

  it('keeps 18-decimal amounts exact in the sums', () => {
    const liquidity = bookLiquidity(
      levels(['0.00000123', '123456789.123456789123456789']),
      levels(['0.00000124', '0.000000000000000001']),
    );
    expect(liquidity.minusDepth).toEqual({
      base: '123456789.123456789123456789',
      quote: '151.85185062185185062185185047',
    });
    expect(liquidity.plusDepth?.quote).toBe('0.00000000000000000000000124');
  });

  it('says crossed when the best bid reaches the best ask, and gives a negative spread', () => {
    const crossed = bookLiquidity(levels(['101', '1']), levels(['100', '1']));
    expect(crossed.crossed).toBe(true);
    expect(crossed.spreadPercent?.toFixed(2)).toBe('-1.00');
    expect(bookLiquidity(levels(['100', '1']), levels(['100', '1'])).crossed).toBe(true);
  });

  it('has no mid, spread or depth with an empty side', () => {
    expect(bookLiquidity([], levels(['100', '1']))).toEqual({
      bestBid: undefined,
      bestAsk: '100',
      crossed: false,
    });
    expect(bookLiquidity([], [])).toEqual({ bestBid: undefined, bestAsk: undefined, crossed: false });
  });
});
