import { bucketEnd, bucketStart, CandleInterval } from '../candle-interval';

/**
 * A bar width as TradingView names it: minutes as a number (`1`, `5`, `15`, `30`, `60`, `240`), and
 * `1D`, `1W`, `1M` (also written `D`, `W`, `M`). Every bar is built from 1-minute bars or, from a day
 * up, from daily bars, all in UTC: days at 00:00, weeks from Monday, months on the first day.
 */
export interface ChartResolution {
  /** The canonical name: `1` … `240`, `1D`, `1W`, `1M`. */
  readonly name: string;
  readonly unit: 'minute' | 'day' | 'week' | 'month';
  /** Minutes per bar for `minute`; 1 otherwise. */
  readonly count: number;
}

export const MINUTE_RESOLUTIONS = [1, 5, 15, 30, 60, 240] as const;
export const CHART_RESOLUTION_NAMES = [...MINUTE_RESOLUTIONS.map(String), '1D', '1W', '1M'] as const;

const MINUTE_MS = 60_000;
const BY_UNIT: Record<Exclude<ChartResolution['unit'], 'minute'>, CandleInterval> = {
  day: '1d',
  week: '1w',
  month: '1M',
};

export const ONE_MINUTE: ChartResolution = { name: '1', unit: 'minute', count: 1 };
export const ONE_DAY: ChartResolution = { name: '1D', unit: 'day', count: 1 };

/** The resolution `text` names, or undefined for one the gateway does not build. */
export function parseChartResolution(text: string): ChartResolution | undefined {
  if (/^[1-9]\d{0,3}$/.test(text)) {
    const minutes = Number(text);
    if (!(MINUTE_RESOLUTIONS as readonly number[]).includes(minutes)) return undefined;
    return { name: text, unit: 'minute', count: minutes };
  }
  const unit = ({ D: 'day', '1D': 'day', W: 'week', '1W': 'week', M: 'month', '1M': 'month' } as const)[
    text as 'D'
  ];
  return unit ? { name: `1${text.slice(-1)}`, unit, count: 1 } : undefined;
}

/** Start (Unix milliseconds) of the bar of `resolution` holding `time`. */
export function barStart(time: number, resolution: ChartResolution): number {
  if (resolution.unit !== 'minute') return bucketStart(time, BY_UNIT[resolution.unit]);
  const width = resolution.count * MINUTE_MS;
  return time - (((time % width) + width) % width);
}

/** End (exclusive) of the bar of `resolution` that starts at `start`. */
export function barEnd(start: number, resolution: ChartResolution): number {
  if (resolution.unit !== 'minute') return bucketEnd(start, BY_UNIT[resolution.unit]);
  return start + resolution.count * MINUTE_MS;
}
