import { Trade } from '../../market/trade';
import { TradeRows } from '../../market/trade-columns';
import { compareTradesOldestFirst } from '../../store/store-order';

/**
 * The stored trades (oldest first) with the held ones of the window (time after `windowStart`) that
 * the store lacks, oldest first; undefined when it lacks none. A trade once served stays served until
 * it leaves the window: a store that lost some (a promoted replica that was behind, a Redis restarted
 * empty, a new writer still fetching its history) has them back from a writer later, and a trade of
 * the exchange's is a fact meanwhile all the same.
 */
export function withHeldTrades(
  held: TradeRows,
  stored: readonly Trade[],
  windowStart: number,
): Trade[] | undefined {
  let missing: Trade[] | undefined;
  let first = held.length;
  while (first > 0 && held.timeAt(first - 1) > windowStart) first--;
  let next = 0;
  for (let position = first; position < held.length; position++) {
    const time = held.timeAt(position);
    while (next < stored.length && stored[next].time < time) next++;
    const id = held.idAt(position);
    let at = next;
    while (at < stored.length && stored[at].time === time && stored[at].id !== id) at++;
    if (at === stored.length || stored[at].time !== time) (missing ??= []).push(held.at(position));
  }
  return missing && [...stored, ...missing].sort(compareTradesOldestFirst);
}
