import { MarketInfo } from '../market-info';
import { MarketStats } from '../market-stats';
import { SyncState } from '../sync-state';
import { BookLiquidity } from './book-liquidity';
import { ListingFlag } from './listing-flag';
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

/** The listing-health figures of every listed market, made at one moment. */
export interface HealthReport {
  /** When the report was made; every age is counted to it. */
  readonly generatedAt: number;
  /** When the books behind the depth figures were read. */
  readonly booksReadAt: number;
  readonly markets: readonly MarketHealth[];
}
