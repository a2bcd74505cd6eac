import { Candle } from '../candle-stats';
import { compareCanonical } from '../decimal';
import { ExactSum } from '../exact-sum';
import { barEnd, barStart, ChartResolution } from './chart-resolution';

/**
 * The bars of `resolution` that `bars` (oldest first, each inside one bar of `resolution`) add up
 * to: open of the first, close of the last, the highest high, the lowest low, the exact sum of the
 * volumes, and of the quote volumes when every bar has one. A bar only where a bar went in.
 */
export function rollUpBars(bars: readonly Candle[], resolution: ChartResolution): Candle[] {
  const rolled: Candle[] = [];
  let at = 0;
  while (at < bars.length) {
    const start = barStart(bars[at].start, resolution);
    const end = barEnd(start, resolution);
    const first = bars[at];
    let high = first.high;
    let low = first.low;
    let close = first.close;
    const volume = new ExactSum();
    const quoteVolume = new ExactSum();
    let everyQuote = true;
    for (; at < bars.length && bars[at].start < end; at++) {
      const bar = bars[at];
      if (compareCanonical(bar.high, high) > 0) high = bar.high;
      if (compareCanonical(bar.low, low) < 0) low = bar.low;
      close = bar.close;
      volume.add(bar.volume);
      if (bar.quoteVolume === undefined) everyQuote = false;
      else if (everyQuote) quoteVolume.add(bar.quoteVolume);
    }
    rolled.push({
      start,
      end,
      open: first.open,
      high,
      low,
      close,
      volume: volume.toText(),
      ...(everyQuote ? { quoteVolume: quoteVolume.toText() } : {}),
    });
  }
  return rolled;
}
