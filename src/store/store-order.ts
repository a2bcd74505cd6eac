import { compareCanonical } from '../market/decimal';
import { Trade } from '../market/trade';
import { PriceLevel } from './state-store';

/** Sorts levels in place, best first: bids by descending price, asks by ascending price, exactly. */
export function sortBestFirst(levels: PriceLevel[], side: 'bids' | 'asks'): PriceLevel[] {
  return side === 'bids'
    ? levels.sort((a, b) => compareCanonical(b[0], a[0]))
    : levels.sort((a, b) => compareCanonical(a[0], b[0]));
}

/** Oldest first: by time, then by the numeric value of the trade id. */
export function compareTradesOldestFirst(a: Trade, b: Trade): number {
  // Trade ids are integer text, which compareCanonical orders by value (length first).
  return a.time - b.time || compareCanonical(a.id, b.id);
}
