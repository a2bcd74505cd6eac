import { PriceLevel } from '../../market/book-update';
import { toFixedScale } from '../../market/decimal';
import { MarketInfo } from '../../market/market-info';
import { BookView } from '../../store/state-store';

export interface BookSides {
  /** `[price, amount]` in published form, best first: bids descending, asks ascending. */
  readonly bids: [string, string][];
  readonly asks: [string, string][];
}

/**
 * The published sides of a book: `perSide` levels of each (0 for all), or only the best bid and ask
 * at level 1; prices at the price scale, amounts at the amount scale.
 */
export function bookSides(market: MarketInfo, book: BookView, perSide: number, level: 1 | 2): BookSides {
  const limit = level === 1 ? 1 : perSide;
  const render = (levels: readonly PriceLevel[]) =>
    (limit > 0 ? levels.slice(0, limit) : levels).map(([price, amount]): [string, string] => [
      toFixedScale(price, market.priceScale),
      toFixedScale(amount, market.amountScale),
    ]);
  return { bids: render(book.bids), asks: render(book.asks) };
}
