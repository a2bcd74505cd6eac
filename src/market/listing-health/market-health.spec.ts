import { ExactRatio } from '../exact-ratio';
import { MarketInfo } from '../market-info';
import { EMPTY_STATS, MarketStats } from '../market-stats';
import { bookLiquidity } from './book-liquidity';
import { ListingThresholds } from './listing-thresholds';
import { MarketHealthInput } from './health-figures';
import { marketHealth } from './market-health';
import { UsdPrice } from './usd-prices';

const NOW = 1_800_000_000_000;
const THRESHOLDS: ListingThresholds = {
  maxSpreadPercent: ExactRatio.of('2'),
  minDepthUsd: ExactRatio.of('1000'),
  staleTradesMs: 3_600_000,
  staleBookMs: 60_000,
  volumeToDepthRatio: ExactRatio.of('100'),
};
const MARKET = {
  instrument: 'eth_btc',
  baseAsset: 'eth',
  quoteAsset: 'btc',
  priceScale: 6,
  amountScale: 4,
  status: 'Open',
} as MarketInfo;
const STATS: MarketStats = { ...EMPTY_STATS, baseVolume: '12.5', quoteVolume: '0.625', tradeCount: 40 };
const BTC_USD: UsdPrice = { price: ExactRatio.of('60000'), path: ['btc_usdt'] };

function input(overrides: Partial<MarketHealthInput> = {}): MarketHealthInput {
  return {
    market: MARKET,
    stats: STATS,
    lastTradeTime: NOW - 5_000,
    confirmedAt: NOW - 1_000,
    syncState: 'live',
    bookVersion: 42,
    liquidity: bookLiquidity(
      [
        ['0.0499', '10'],
        ['0.048', '100'],
      ],
      [
        ['0.0501', '10'],
        ['0.06', '100'],
      ],
    ),
    quoteUsd: BTC_USD,
    now: NOW,
    ...overrides,
  };
}

const codes = (overrides: Partial<MarketHealthInput> = {}, thresholds = THRESHOLDS) =>
  marketHealth(input(overrides), thresholds).flags.map((flag) => flag.code);

describe('marketHealth', () => {
  it('publishes the figures at the market scales, the mid exact, dollars at two decimals', () => {
    const health = marketHealth(input(), THRESHOLDS);
    expect(health).toMatchObject({
      bestBid: '0.049900',
      bestAsk: '0.050100',
      mid: '0.050000',
      spreadPercentage: '0.40',
      depthPlus2PercentQuote: '0.501000',
      depthMinus2PercentQuote: '0.499000',
      depthPlus2PercentBase: '10.0000',
      depthMinus2PercentBase: '10.0000',
      usd: {
        quotePricePath: ['btc_usdt'],
        depthPlus2Percent: '30060.00',
        depthMinus2Percent: '29940.00',
        quoteVolume24h: '37500.00',
        reason: null,
      },
      lastTradeAgeMs: 5_000,
      trades24h: 40,
      baseVolume24h: '12.5000',
      quoteVolume24h: '0.625000',
      bookAgeMs: 1_000,
      syncState: 'live',
      bookVersion: 42,
    });
    expect(health.flags).toEqual([]);
  });

  it('writes the mid with one more decimal only when halving needs it', () => {
    const odd = marketHealth(
      input({ liquidity: bookLiquidity([['0.049999', '1']], [['0.050002', '1']]) }),
      THRESHOLDS,
    );
    expect(odd.mid).toBe('0.0500005');
  });

  it('flags a crossed book and an empty side', () => {
    expect(codes({ liquidity: bookLiquidity([['0.051', '1']], [['0.05', '1']]) })).toContain('crossed_book');
    const empty = marketHealth(input({ liquidity: bookLiquidity([], [['0.05', '1']]) }), THRESHOLDS);
    expect(empty.flags.map((flag) => flag.code)).toContain('empty_side');
    expect(empty.flags.find((flag) => flag.code === 'empty_side')?.message).toBe(
      'the book has no bids: no spread or depth can be measured',
    );
    expect(empty).toMatchObject({ mid: null, spreadPercentage: null, depthMinus2PercentQuote: null });
  });

  it('judges the spread as published, at two decimals', () => {
    const at = (ask: string) => codes({ liquidity: bookLiquidity([['100', '1000']], [[ask, '1000']]) });
    expect(at('102.0201')).not.toContain('wide_spread'); // 2.0000... %
    expect(at('102.03')).toContain('wide_spread'); // 2.0099... % publishes 2.01
  });

  it('flags thin depth on either side, in dollars', () => {
    const thin = marketHealth(
      input({ liquidity: bookLiquidity([['0.0499', '0.3']], [['0.0501', '10']]) }),
      THRESHOLDS,
    );
    expect(thin.flags.find((flag) => flag.code === 'thin_depth')?.message).toBe(
      'the -2 % depth is 898.20 USD, under 1000 USD',
    );
  });

  it('flags stale trades and a stale book past their limits', () => {
    expect(codes({ lastTradeTime: NOW - 3_600_000 })).not.toContain('stale_trades');
    expect(codes({ lastTradeTime: NOW - 3_600_001 })).toContain('stale_trades');
    expect(codes({ lastTradeTime: undefined })).toContain('stale_trades');
    expect(codes({ confirmedAt: NOW - 60_001 })).toContain('stale_book');
    expect(codes({ confirmedAt: 0 })).toContain('stale_book');
  });

  it('flags a halted or paused market as frozen', () => {
    expect(codes({ market: { ...MARKET, status: 'Halted' } })).toContain('frozen');
    expect(codes({ market: { ...MARKET, status: 'Paused' } })).toContain('frozen');
  });

  it('gives no dollar figure without a dollar price, and says why', () => {
    const health = marketHealth(input({ quoteUsd: { price: undefined, reason: 'no path' } }), THRESHOLDS);
    expect(health.usd).toEqual({
      quotePricePath: null,
      depthPlus2Percent: null,
      depthMinus2Percent: null,
      quoteVolume24h: null,
      reason: 'no path',
    });
    expect(health.flags).toEqual([{ code: 'no_usd_path', message: 'no path' }]);
  });

  it('flags a volume over the limit of times the ±2 % depth, in quote units', () => {
    // depth 0.501 + 0.499 = 1 BTC: the limit is 100 BTC of volume.
    expect(codes({ stats: { ...STATS, quoteVolume: '100' } })).not.toContain('volume_without_depth');
    const over = marketHealth(input({ stats: { ...STATS, quoteVolume: '250.4' } }), THRESHOLDS);
    expect(over.flags.find((flag) => flag.code === 'volume_without_depth')?.message).toBe(
      'the 24-hour volume is 250 times the ±2 % depth, over 100 times: aggregators read that as wash trading',
    );
  });
});
