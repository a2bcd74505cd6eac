import { LastTrade } from './last-trade';
import { MarketStats } from './market-stats';

/**
 * The price a market last traded at: the newest trade of the 24-hour window; without one, the newest
 * trade known from before it (or the exchange's own last traded price); undefined when no trade is
 * known at all, rather than a zero that would read as a price beside a live book.
 */
export function lastTradedPrice(stats: MarketStats, known: LastTrade | undefined): string | undefined {
  if (stats.last !== '0') return stats.last;
  return known !== undefined && known.price !== '0' ? known.price : undefined;
}
