import { toFixedScale } from '../decimal';
import { ExactRatio } from '../exact-ratio';
import { MarketInfo } from '../market-info';
import { MarketStats } from '../market-stats';
import { SyncState } from '../sync-state';
import { BookLiquidity } from './book-liquidity';
import { ListingFlag } from './listing-flag';
import { listingFlags } from './listing-flags';
import { ListingThresholds } from './listing-thresholds';
import { UsdPrice } from './usd-prices';

/** What the figures of one market are computed from, read at one moment. */
export interface MarketHealthInput {
  readonly market: MarketInfo;
  readonly stats: MarketStats;
  /** Unix milliseconds of the newest trade known, of any age; absent when none is known. */
  readonly lastTradeTime?: number;
  /** When the book was last known current (Unix milliseconds, 0: never). */
  readonly confirmedAt: number;
  readonly syncState?: SyncState;
  /** Of the book `liquidity` was computed from; absent without a book. */
  readonly bookVersion?: number;
  readonly liquidity: BookLiquidity;
  /** The price of the market's quote asset. */
  readonly quoteUsd: UsdPrice;
  readonly now: number;
}

/** The dollar figures of a market, two decimals; all null, with the reason, without a dollar price. */
export interface UsdFigures {
  readonly quotePricePath: readonly string[] | null;
  readonly depthPlus2Percent: string | null;
  readonly depthMinus2Percent: string | null;
  readonly quoteVolume24h: string | null;
  readonly reason: string | null;
}

/**
 * The figures aggregators judge a market by, in the listing endpoints' format: prices and quote
 * amounts at the market's price scale, base amounts at its amount scale, rounded half away from zero;
 * the mid exact (one decimal more when halving needs it); percentages and dollars at two decimals. Null where a book side is missing.
 */
export interface MarketHealth {
  readonly instrument: string;
  readonly base: string;
  readonly quote: string;
  readonly status: string;
  readonly syncState: SyncState | null;
  readonly bookVersion: number | null;
  readonly bestBid: string | null;
  readonly bestAsk: string | null;
  readonly mid: string | null;
  readonly spreadPercentage: string | null;
  readonly depthPlus2PercentQuote: string | null;
  readonly depthMinus2PercentQuote: string | null;
  readonly depthPlus2PercentBase: string | null;
  readonly depthMinus2PercentBase: string | null;
  readonly usd: UsdFigures;
  readonly lastTradeAgeMs: number | null;
  readonly trades24h: number;
  readonly baseVolume24h: string;
  readonly quoteVolume24h: string;
  readonly bookAgeMs: number | null;
  readonly flags: readonly ListingFlag[];
}

const DOLLAR_SCALE = 2;
const PERCENT_SCALE = 2;

export function marketHealth(input: MarketHealthInput, thresholds: ListingThresholds): MarketHealth {
  const { market, stats, liquidity } = input;
  const price = (value: string | undefined) =>
    value === undefined ? null : toFixedScale(value, market.priceScale);
  const amount = (value: string | undefined) =>
    value === undefined ? null : toFixedScale(value, market.amountScale);
  const usd = usdFigures(input);
  const health: Omit<MarketHealth, 'flags'> = {
    instrument: market.instrument,
    base: market.baseAsset.toUpperCase(),
    quote: market.quoteAsset.toUpperCase(),
    status: market.status,
    syncState: input.syncState ?? null,
    bookVersion: input.bookVersion ?? null,
    bestBid: price(liquidity.bestBid),
    bestAsk: price(liquidity.bestAsk),
    mid: liquidity.mid ? midText(liquidity.mid, market.priceScale) : null,
    spreadPercentage: liquidity.spreadPercent?.toFixed(PERCENT_SCALE) ?? null,
    depthPlus2PercentQuote: price(liquidity.plusDepth?.quote),
    depthMinus2PercentQuote: price(liquidity.minusDepth?.quote),
    depthPlus2PercentBase: amount(liquidity.plusDepth?.base),
    depthMinus2PercentBase: amount(liquidity.minusDepth?.base),
    usd,
    lastTradeAgeMs: input.lastTradeTime ? Math.max(0, input.now - input.lastTradeTime) : null,
    trades24h: stats.tradeCount,
    baseVolume24h: toFixedScale(stats.baseVolume, market.amountScale),
    quoteVolume24h: toFixedScale(stats.quoteVolume, market.priceScale),
    bookAgeMs: input.confirmedAt > 0 ? Math.max(0, input.now - input.confirmedAt) : null,
  };
  return { ...health, flags: listingFlags(input, health, thresholds) };
}

function usdFigures({ liquidity, stats, quoteUsd }: MarketHealthInput): UsdFigures {
  if (quoteUsd.price === undefined) {
    return {
      quotePricePath: null,
      depthPlus2Percent: null,
      depthMinus2Percent: null,
      quoteVolume24h: null,
      reason: quoteUsd.reason,
    };
  }
  const dollars = (quote: string | undefined) =>
    quote === undefined ? null : ExactRatio.of(quote).times(quoteUsd.price).toFixed(DOLLAR_SCALE);
  return {
    quotePricePath: quoteUsd.path,
    depthPlus2Percent: dollars(liquidity.plusDepth?.quote),
    depthMinus2Percent: dollars(liquidity.minusDepth?.quote),
    quoteVolume24h: dollars(stats.quoteVolume),
    reason: null,
  };
}

/** At the price scale, with the one more decimal that halving an odd last digit takes. */
function midText(mid: ExactRatio, priceScale: number): string {
  const atScale = mid.toFixed(priceScale);
  return ExactRatio.of(atScale).compare(mid) === 0 ? atScale : mid.toFixed(priceScale + 1);
}
