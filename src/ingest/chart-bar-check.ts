import { Candle } from '../market/candle-stats';

/**
 * Bars of one side that the other does not have exactly: a minute on one side only, or a minute whose
 * open, high, low, close or volume differ. Decimals are canonical text, so equal values are equal text.
 */
export function mismatchingBars(tradeBars: readonly Candle[], exchangeBars: readonly Candle[]): number {
  const exchange = new Map(exchangeBars.map((bar) => [bar.start, bar]));
  let mismatches = 0;
  for (const bar of tradeBars) {
    const other = exchange.get(bar.start);
    if (!other || !sameFigures(bar, other)) mismatches++;
    exchange.delete(bar.start);
  }
  return mismatches + exchange.size;
}

function sameFigures(a: Candle, b: Candle): boolean {
  return (
    a.open === b.open && a.high === b.high && a.low === b.low && a.close === b.close && a.volume === b.volume
  );
}
