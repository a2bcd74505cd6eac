import { TradeColumns } from '../market/trade-columns';
import { TradeTail } from './state-store';

/**
 * Brings a reader's copy of an instrument's stored trades (oldest first) up to date, in place, from
 * a tail read from the time of its newest trade on; false, the copy untouched, when the store
 * changed in any other way than trades added after the copy's newest and old ones dropped: then the
 * reader reads them all again.
 *
 * The writer adds trades at the new end and the window drops them at the old end. Anything else (a
 * trade filled in among older ones, a set emptied, or rewritten by another writer with more or less
 * history) shows as trades of the copy's newest time (those still stored) that the tail does not
 * begin with, an oldest stored trade the copy does not hold, or a count that does not add up. A trade is a fact of the exchange's, the same in every writer's window, so a
 * rewrite never holds other trades than the copy between its two ends; the reader still reads
 * everything again every minute (see MarketViews).
 */
export function appendTail(copy: TradeColumns, tail: TradeTail): boolean {
  const held = copy.length;
  const oldest = tail.oldest;
  if (held === 0 || oldest === undefined) return false;
  const newestTime = copy.timeAt(held - 1);
  if (oldest.time > newestTime) return false;
  // The copy's trades of its newest time: the tail starts with those still stored.
  let group = held;
  while (group > 0 && copy.timeAt(group - 1) >= newestTime) group--;
  let start = oldest.time < newestTime ? 0 : group;
  while (start < held && copy.idAt(start) !== oldest.id) start++;
  if (start === held || (oldest.time < newestTime && start >= group)) return false;
  const kept = Math.max(group, start);
  const shared = held - kept;
  if (tail.trades.length < shared) return false;
  for (let i = 0; i < shared; i++) if (tail.trades[i].id !== copy.idAt(kept + i)) return false;
  if (kept - start + tail.trades.length !== tail.count) return false;
  copy.dropOldest(start);
  for (let i = shared; i < tail.trades.length; i++) copy.push(tail.trades[i]);
  return true;
}
