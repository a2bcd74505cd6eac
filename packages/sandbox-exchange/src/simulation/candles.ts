import { bucketEnd, bucketStart, CandleInterval } from '../wire/candle-interval';
import { SandboxTrade } from './sandbox-trade';

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
