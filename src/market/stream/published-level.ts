import { PriceLevel } from '../book-update';
import { MarketInfo } from '../market-info';

export type MarketScales = Pick<MarketInfo, 'priceScale' | 'amountScale'>;

/**
 * Canonical decimal text as the listing writes it at a market's scale (`toFixedScale`), zeros padded to
 * the scale, except that a value with more decimals than the scale keeps them: rounded, two levels
 * could print as one price and an amount as zero, and a reader could no longer rebuild the book.
 */
export function publishedDecimal(canonical: string, scale: number): string {
  const point = canonical.indexOf('.');
  const decimals = point < 0 ? 0 : canonical.length - point - 1;
  if (decimals >= scale) return canonical;
  return (point < 0 ? `${canonical}.` : canonical) + '0'.repeat(scale - decimals);
}

/** A level of the stream: price and amount at the market's scales, amount "0" (a removal) as it is. */
export function publishedLevel(level: PriceLevel, scales: MarketScales): PriceLevel {
  const amount = level[1] === '0' ? '0' : publishedDecimal(level[1], scales.amountScale);
  return [publishedDecimal(level[0], scales.priceScale), amount];
}
