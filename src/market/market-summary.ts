import { PriceLevel } from './book-update';
import { Decimal, formatFixed, toDecimal, toFixedScale, ZERO } from './decimal';
import { isFrozen, MarketInfo } from './market-info';
import { MarketStats } from './market-stats';

/**
 * One market's listing figures, every decimal already in its published form: prices at the market's
 * price scale, base amounts at its amount scale, quote amounts at its price scale, rounded half away
 * from zero with trailing zeros. Every listing format (the exchange's, CoinMarketCap's, CoinGecko's)
 * is a renaming of this, so that they can never disagree.
 */
export interface MarketSummary {
  readonly instrument: string;
  /** Upper case, e.g. `BTC`. */
  readonly base: string;
  readonly quote: string;
  readonly last: string;
  readonly open: string;
  readonly high: string;
  readonly low: string;
  /** Best ask and best bid of the live book; zero for an empty side. */
  readonly lowestAsk: string;
  readonly highestBid: string;
  readonly baseVolume: string;
  readonly quoteVolume: string;
  /** `(last - open) / open x 100` with two decimals; "0.00" without trades. */
  readonly percentChange: string;
  readonly isFrozen: boolean;
}

const HUNDRED = new Decimal('100');

export function summarizeMarket(
  market: MarketInfo,
  stats: MarketStats,
  bestBid: PriceLevel | undefined,
  bestAsk: PriceLevel | undefined,
): MarketSummary {
  const price = (value: string) => toFixedScale(value, market.priceScale);
  return {
    instrument: market.instrument,
    base: market.baseAsset.toUpperCase(),
    quote: market.quoteAsset.toUpperCase(),
    last: price(stats.last),
    open: price(stats.open),
    high: price(stats.high),
    low: price(stats.low),
    lowestAsk: price(bestAsk?.[0] ?? '0'),
    highestBid: price(bestBid?.[0] ?? '0'),
    baseVolume: toFixedScale(stats.baseVolume, market.amountScale),
    quoteVolume: price(stats.quoteVolume),
    percentChange: percentChange(stats.open, stats.last),
    isFrozen: isFrozen(market),
  };
}

export function percentChange(open: string, last: string): string {
  const base = toDecimal(open);
  if (base.eq(ZERO)) return '0.00';
  return formatFixed(toDecimal(last).minus(base).div(base).times(HUNDRED), 2);
}
