import { MarketInfo } from './market-info';
import { EMPTY_STATS, MarketStats } from './market-stats';
import { percentChange, summarizeMarket } from './market-summary';

const market: MarketInfo = {
  instrument: 'eth_btc',
  baseAsset: 'eth',
  quoteAsset: 'btc',
  priceScale: 8,
  amountScale: 4,
  minAmount: '0.001',
  priceDeviation: '0.1',
  makerFee: '0.001',
  takerFee: '0.002',
  hidden: false,
  status: 'Open',
  side: 'BuySell',
  isCustom: false,
  createdAt: '2024-01-01T00:00:00Z',
  updatedAt: '2024-01-01T00:00:00Z',
};

describe('summarizeMarket', () => {
  it('renders every figure at the market scale with its trailing zeros', () => {
    // Three trades 5.0 x 1.1, 6.0 x 0.9, 5.5 x 2: base 4, quote 21.9 (not last x base).
    const stats: MarketStats = {
      last: '5.5',
      open: '5',
      high: '6',
      low: '5',
      baseVolume: '4',
      quoteVolume: '21.9',
      tradeCount: 3,
      source: 'trades',
    };
    expect(summarizeMarket(market, stats, ['4.9', '1'], ['5.6', '2'])).toEqual({
      instrument: 'eth_btc',
      base: 'ETH',
      quote: 'BTC',
      last: '5.50000000',
      open: '5.00000000',
      high: '6.00000000',
      low: '5.00000000',
      lowestAsk: '5.60000000',
      highestBid: '4.90000000',
      baseVolume: '4.0000',
      quoteVolume: '21.90000000',
      percentChange: '10.00',
      isFrozen: false,
    });
  });

  it('gives zeros without trades and for empty book sides', () => {
    const summary = summarizeMarket(market, EMPTY_STATS, undefined, undefined);
    expect(summary.last).toBe('0.00000000');
    expect(summary.lowestAsk).toBe('0.00000000');
    expect(summary.highestBid).toBe('0.00000000');
    expect(summary.baseVolume).toBe('0.0000');
    expect(summary.percentChange).toBe('0.00');
  });

  it('rounds quote volumes half away from zero at the price scale', () => {
    const stats = {
      ...EMPTY_STATS,
      last: '1',
      open: '1',
      high: '1',
      low: '1',
      quoteVolume: '0.000000015',
      baseVolume: '0.00005',
    };
    const summary = summarizeMarket(market, stats, undefined, undefined);
    expect(summary.quoteVolume).toBe('0.00000002');
    expect(summary.baseVolume).toBe('0.0001');
  });

  it('marks halted and paused markets frozen', () => {
    expect(summarizeMarket({ ...market, status: 'Halted' }, EMPTY_STATS, undefined, undefined).isFrozen).toBe(
      true,
    );
    expect(summarizeMarket({ ...market, status: 'Paused' }, EMPTY_STATS, undefined, undefined).isFrozen).toBe(
      true,
    );
  });
});

describe('percentChange', () => {
  it('is in percent with two decimals and never negative zero', () => {
    expect(percentChange('5', '6')).toBe('20.00');
    expect(percentChange('6', '5')).toBe('-16.67');
    expect(percentChange('1000000', '999999.99')).toBe('0.00');
    expect(percentChange('0', '5')).toBe('0.00');
    expect(percentChange('3', '3.0000000000000001')).toBe('0.00');
  });
});
