import BigConstructor from 'big.js';
import { PriceLevel } from './book-update';
import { formatFixed, toFixedScale } from './decimal';
import { lastTradedPrice } from './last-price';
import { LastTrade } from './last-trade';
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
  /** The newest trade's price of the 24-hour window, zero without one (spec 2.8). */
  readonly last: string;
  /**
   * The price the market last traded at, for the formats whose own specifications ask for it
   * (CoinMarketCap, CoinGecko): the window's newest trade, else the newest known before it; null
   * when no trade of the market is known (never a zero beside a live book).
   */
  readonly lastTraded: string | null;
  /** The 24-hour figures below are zero without a trade in the window. */
  readonly open: string;
  readonly high: string;
  readonly low: string;
  /** Best ask and best bid of the live book; zero for an empty side. */
  readonly lowestAsk: string;
  readonly highestBid: string;
  readonly baseVolume: string;
  readonly quoteVolume: string;
  /** `(last - open) / open x 100` over the window, two decimals; "0.00" without trades in it. */
  readonly percentChange: string;
  readonly isFrozen: boolean;
}

export function summarizeMarket(
  market: MarketInfo,
  stats: MarketStats,
  lastTrade: LastTrade | undefined,
  bestBid: PriceLevel | undefined,
  bestAsk: PriceLevel | undefined,
): MarketSummary {
  const price = (value: string) => toFixedScale(value, market.priceScale);
  const lastTraded = lastTradedPrice(stats, lastTrade);
  return {
    instrument: market.instrument,
    base: market.baseAsset.toUpperCase(),
    quote: market.quoteAsset.toUpperCase(),
    last: price(stats.last),
    lastTraded: lastTraded === undefined ? null : price(lastTraded),
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

/** A summary of a market that has traded: it has a last price. */
export type TradedSummary = MarketSummary & { readonly lastTraded: string };

/** Whether the market ever traded: the aggregators' formats leave a market without a last price out. */
export function hasLastPrice(summary: MarketSummary): summary is TradedSummary {
  return summary.lastTraded !== null;
}

/**
 * Divides for `percentChange` only: to three decimals, truncated. Rounding that half away from zero
 * to two decimals rounds the exact quotient, since the halfway point 0.005 has three decimals itself;
 * a division carried to `Decimal`'s 40 places costs several times as much, for every market of every
 * listing rebuilt.
 */
const PercentDecimal = BigConstructor();
PercentDecimal.DP = 3;
PercentDecimal.RM = BigConstructor.roundDown;
PercentDecimal.strict = true;
const HUNDRED = new PercentDecimal('100');
const PERCENT_ZERO = new PercentDecimal('0');

/** `(last - open) / open x 100`, rounded half away from zero to two decimals; "0.00" when open is zero. */
export function percentChange(open: string, last: string): string {
  const opening = new PercentDecimal(open);
  if (opening.eq(PERCENT_ZERO)) return '0.00';
  return formatFixed(new PercentDecimal(last).minus(opening).times(HUNDRED).div(opening), 2);
}
