import { compareCanonical } from './decimal';

/** 1: best = highest price (bids); -1: best = lowest price (asks). */
export type BookDirection = 1 | -1;

/** A level's float sort key: ascending keys run from the worst level to the best. */
export function levelKey(direction: BookDirection, price: string): number {
  return direction * +price;
}

/**
 * Worse before better (negative when A is worse). Float order never contradicts the exact order, it only
 * fails to separate values, such as 18-decimal prices; equal keys fall back to the canonical texts.
 */
export function compareLevels(
  direction: BookDirection,
  keyA: number,
  priceA: string,
  keyB: number,
  priceB: string,
): number {
  if (keyA !== keyB) return keyA < keyB ? -1 : 1;
  return direction * compareCanonical(priceA, priceB);
}
