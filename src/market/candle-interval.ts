import { DAY_MS } from './trade-window';

/** Candle widths the exchange offers (spec 4.1); there is no 4h or 6h. */
export const CANDLE_INTERVALS = ['1m', '5m', '15m', '30m', '1h', '12h', '1d', '1w', '1M'] as const;
export type CandleInterval = (typeof CANDLE_INTERVALS)[number];

/** Candles per request: the exchange's default and maximum (spec 8). */
export const MAX_CANDLES = 1000;

const FIXED_MS: Partial<Record<CandleInterval, number>> = {
  '1m': 60_000,
  '5m': 300_000,
  '15m': 900_000,
  '30m': 1_800_000,
  '1h': 3_600_000,
  '12h': 43_200_000,
  '1d': DAY_MS,
};

export function isCandleInterval(text: string): text is CandleInterval {
  return (CANDLE_INTERVALS as readonly string[]).includes(text);
}

/** Start of the UTC bucket holding `time`: minutes and hours from the epoch, weeks from Monday, calendar months. */
export function bucketStart(time: number, interval: CandleInterval): number {
  const fixed = FIXED_MS[interval];
  if (fixed !== undefined) return time - (((time % fixed) + fixed) % fixed);
  if (interval === '1w') {
    const day = Math.floor(time / DAY_MS);
    const weekday = (day + 3) % 7; // 1970-01-01 was a Thursday; Monday is 0.
    return (day - weekday) * DAY_MS;
  }
  const date = new Date(time);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
}

export function bucketEnd(start: number, interval: CandleInterval): number {
  const fixed = FIXED_MS[interval];
  if (fixed !== undefined) return start + fixed;
  if (interval === '1w') return start + 7 * DAY_MS;
  const date = new Date(start);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
}
