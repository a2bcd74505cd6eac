import { Trade } from '../market/trade';
import { TradeTail } from './state-store';

/**
 * A reader's copy of an instrument's stored trades (oldest first) brought up to date from a tail
 * read from the time of its newest trade on, or undefined when the store changed in any other way
 * than trades added after that time and old ones dropped: then the reader reads them all again.
 *
 * The writer adds trades at the new end and the window drops them at the old end. Anything else (a
 * trade filled in among older ones, a set emptied, or rewritten by another writer with more or less
 * history) shows as a newest trade of the copy that is no longer stored, an oldest stored trade the
 * copy does not hold, or a count that does not add up. A trade is a fact of the exchange's, the
 * same in every writer's window, so a rewrite never holds other trades than the copy between its
 * two ends; the reader still reads everything again every minute (see MarketViews).
 */
export function appendTail(copy: readonly Trade[], tail: TradeTail): Trade[] | undefined {
  const newest = copy[copy.length - 1];
  const oldest = tail.oldest;
  if (newest === undefined || oldest === undefined) return undefined;
  if (!tail.trades.some((trade) => trade.id === newest.id)) return undefined;
  let end = copy.length;
  while (end > 0 && copy[end - 1].time >= newest.time) end--;
  let start = end;
  if (oldest.time < newest.time) {
    start = copy.findIndex((trade) => trade.id === oldest.id);
    if (start < 0 || start >= end) return undefined;
  }
  if (end - start + tail.trades.length !== tail.count) return undefined;
  return copy.slice(start, end).concat(tail.trades);
}
