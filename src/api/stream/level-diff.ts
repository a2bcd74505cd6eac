import { PriceLevel } from '../../market/book-update';

/**
 * The levels of one book side that differ between two reads of it: each level of `after` that is new
 * or has another amount, and amount "0" for each price of `before` that `after` no longer holds.
 */
export function levelDiff(before: readonly PriceLevel[], after: readonly PriceLevel[]): PriceLevel[] {
  const held = new Map<string, string>(before);
  const changed: PriceLevel[] = [];
  for (const [price, amount] of after) {
    if (held.get(price) !== amount) changed.push([price, amount]);
    held.delete(price);
  }
  for (const price of held.keys()) changed.push([price, '0']);
  return changed;
}
