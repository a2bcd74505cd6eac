import { levelParam } from '../http/query-params';

/**
 * CoinMarketCap's `level`. Its level 3 is the complete book without aggregation, which the exchange
 * does not publish (its books are aggregated by price), so level 3 is the finest book there is: level 2.
 */
const CMC_BOOK_LEVELS = {
  1: 'best bid and ask',
  2: 'every price level',
  3: 'every price level, the finest book the exchange publishes',
} as const;

/** The book level to serve: 1 (best bid and ask) or 2 (every price level, also for level 3). */
export function cmcLevelParam(value: unknown): 1 | 2 {
  const level = levelParam<1 | 2 | 3>(value, CMC_BOOK_LEVELS, 2);
  return level === 3 ? 2 : level;
}
