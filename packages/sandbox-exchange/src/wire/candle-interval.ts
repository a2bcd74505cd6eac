/** Candle widths the exchange offers; there is no 4h or 6h. */
export const CANDLE_INTERVALS = ['1m', '5m', '15m', '30m', '1h', '12h', '1d', '1w', '1M'] as const;
export type CandleInterval = (typeof CANDLE_INTERVALS)[number];

/** Candles per request: the exchange's default and its maximum. */
export const MAX_CANDLES = 1000;

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** Every interval but the month has a fixed width. */
const WIDTH_MS: Record<Exclude<CandleInterval, '1M'>, number> = {
  '1m': MINUTE_MS,
  '5m': 5 * MINUTE_MS,
  '15m': 15 * MINUTE_MS,
  '30m': 30 * MINUTE_MS,
  '1h': HOUR_MS,
  '12h': 12 * HOUR_MS,
  '1d': DAY_MS,
  '1w': 7 * DAY_MS,
};

/** 1970-01-05, the first Monday after the epoch: weeks are counted from it. */
const WEEK_ORIGIN_MS = 4 * DAY_MS;

export function isCandleInterval(text: string): text is CandleInterval {
  return (CANDLE_INTERVALS as readonly string[]).includes(text);
}

/** Start of the UTC bucket holding `time`: fixed widths from the epoch, weeks from Monday, calendar months. */
export function bucketStart(time: number, interval: CandleInterval): number {
  if (interval === '1M') {
    const date = new Date(time);
    return firstOfMonth(date.getUTCFullYear(), date.getUTCMonth());
  }
  const origin = interval === '1w' ? WEEK_ORIGIN_MS : 0;
  const width = WIDTH_MS[interval];
  const sinceBucketStart = (((time - origin) % width) + width) % width;
  return time - sinceBucketStart;
}

/** End (exclusive) of the bucket that starts at `start`. */
export function bucketEnd(start: number, interval: CandleInterval): number {
  if (interval !== '1M') return start + WIDTH_MS[interval];
  const date = new Date(start);
  return firstOfMonth(date.getUTCFullYear(), date.getUTCMonth() + 1);
}

/** Midnight UTC of the month's first day; a month index of 12 is January of the next year. */
function firstOfMonth(year: number, monthIndex: number): number {
  const date = new Date(0);
  // Unlike Date.UTC, setUTCFullYear leaves the years 0-99 where they are.
  date.setUTCFullYear(year, monthIndex, 1);
  return date.getTime();
}
