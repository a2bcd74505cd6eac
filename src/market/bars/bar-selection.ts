import { Candle } from '../candle-stats';
import { barEnd, barStart, ChartResolution } from './chart-resolution';

/** Bars asked for: starts in `[from, to)` (Unix milliseconds), or with `countback` the newest that many before `to`. */
export interface BarRange {
  readonly from: number;
  readonly to: number;
  readonly countback?: number;
}

export interface SelectedBars {
  readonly bars: readonly Candle[];
  /** Start of the newest bar older than the selection's range; undefined when the bars hold none. */
  readonly previous?: number;
}

/** The first bar start of `resolution` at or after `time`. */
export function barStartAtOrAfter(time: number, resolution: ChartResolution): number {
  const start = barStart(time, resolution);
  return start === time ? start : barEnd(start, resolution);
}

/** Whether the query asks for the newest bars before `to` rather than for a range. */
export function countsBack(query: BarRange): query is BarRange & { countback: number } {
  return query.countback !== undefined && query.countback > 0;
}

/**
 * What `query` selects of `bars` (oldest first): the bars starting in `[from, to)`, or the newest
 * `countback` starting before `to`, and the start of the newest bar before those. With `countback`,
 * `bars` must hold at least one bar more than asked for, or every bar there is.
 */
export function selectBars(bars: readonly Candle[], query: BarRange): SelectedBars {
  const before = firstStartAtOrAfter(bars, query.to);
  const first = countsBack(query)
    ? Math.max(0, before - query.countback)
    : Math.min(before, firstStartAtOrAfter(bars, query.from));
  const selected = bars.slice(first, before);
  return first > 0 ? { bars: selected, previous: bars[first - 1].start } : { bars: selected };
}

function firstStartAtOrAfter(bars: readonly Candle[], time: number): number {
  let low = 0;
  let high = bars.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (bars[middle].start < time) low = middle + 1;
    else high = middle;
  }
  return low;
}
