import { SandboxTrade } from './sandbox-trade';
import { DAY_MS } from './trade-log';

export const CANDLE_INTERVALS = ['1m', '5m', '15m', '30m', '1h', '12h', '1d', '1w', '1M'] as const;
export type CandleInterval = (typeof CANDLE_INTERVALS)[number];

const FIXED_MS: Partial<Record<CandleInterval, number>> = {
  '1m': 60_000,
  '5m': 300_000,
  '15m': 900_000,
  '30m': 1_800_000,
  '1h': 3_600_000,
  '12h': 43_200_000,
  '1d': DAY_MS,
};

export interface Candle {
  readonly start: number;
  readonly end: number;
  readonly open: bigint;
  readonly high: bigint;
  readonly low: bigint;
  readonly close: bigint;
  /** Base volume in amount units. */
  readonly volume: bigint;
  /** Quote volume in price units x amount units. */
  readonly quoteVolume: bigint;
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

/** Candles of the buckets that hold at least one trade; trades oldest first. */
export function buildCandles(trades: readonly SandboxTrade[], interval: CandleInterval): Candle[] {
  const candles: Candle[] = [];
  let current: { -readonly [K in keyof Candle]: Candle[K] } | undefined;
  for (const trade of trades) {
    if (!current || trade.time >= current.end) {
      if (current) candles.push(current);
      const start = bucketStart(trade.time, interval);
      current = {
        start,
        end: bucketEnd(start, interval),
        open: trade.price,
        high: trade.price,
        low: trade.price,
        close: trade.price,
        volume: 0n,
        quoteVolume: 0n,
      };
    }
    if (trade.price > current.high) current.high = trade.price;
    if (trade.price < current.low) current.low = trade.price;
    current.close = trade.price;
    current.volume += trade.amount;
    current.quoteVolume += trade.price * trade.amount;
  }
  if (current) candles.push(current);
  return candles;
}
