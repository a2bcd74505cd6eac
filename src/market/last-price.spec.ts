import { lastTradedPrice } from './last-price';
import { EMPTY_STATS } from './market-stats';

describe('lastTradedPrice', () => {
  const window = { ...EMPTY_STATS, last: '101.5', open: '100', high: '102', low: '99', tradeCount: 3 };

  it('is the newest trade of the window when it has one, whatever is known from before', () => {
    expect(lastTradedPrice(window, undefined)).toBe('101.5');
    expect(lastTradedPrice(window, { price: '90', time: 5 })).toBe('101.5');
  });

  it('is the newest trade known from before an empty window', () => {
    expect(lastTradedPrice(EMPTY_STATS, { price: '90', time: 5 })).toBe('90');
  });

  it("is the estimate's last price without a trade feed, Level 1's when the candles are empty", () => {
    const estimated = { ...EMPTY_STATS, last: '88', source: 'candles' as const };
    expect(lastTradedPrice(estimated, { price: '87', time: 5 })).toBe('88');
    expect(lastTradedPrice({ ...EMPTY_STATS, source: 'candles' }, { price: '87', time: 0 })).toBe('87');
  });

  it('is undefined, never zero, when no trade is known', () => {
    expect(lastTradedPrice(EMPTY_STATS, undefined)).toBeUndefined();
    expect(lastTradedPrice(EMPTY_STATS, { price: '0', time: 0 })).toBeUndefined();
  });
});
