import { bucketEnd, bucketStart, CandleInterval } from './candle-interval';
import { Candle } from './candle-stats';
import { canonicalDecimal, compareCanonical, DecimalValue, toDecimal, ZERO } from './decimal';

/** What a candle needs of a trade: its time (Unix milliseconds), price and base amount as canonical text. */
export interface CandleTrade {
  readonly time: number;
  readonly price: string;
  readonly amount: string;
}

interface OpenCandle {
  start: number;
  end: number;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: DecimalValue;
  quoteVolume: DecimalValue;
}

function close(candle: OpenCandle): Candle {
  return {
    start: candle.start,
    end: candle.end,
    open: candle.open,
    high: candle.high,
    low: candle.low,
    close: candle.close,
    volume: canonicalDecimal(candle.volume.toFixed()),
    quoteVolume: canonicalDecimal(candle.quoteVolume.toFixed()),
  };
}

/**
 * Candles of the UTC buckets that hold at least one trade, as the exchange builds them: open and
 * close the first and last price, volume the exact sum of the amounts, quote volume the exact sum of
 * price x amount. `trades` oldest first.
 */
export function tradeCandles(trades: readonly CandleTrade[], interval: CandleInterval): Candle[] {
  const candles: Candle[] = [];
  let current: OpenCandle | undefined;
  for (const trade of trades) {
    if (!current || trade.time >= current.end) {
      if (current) candles.push(close(current));
      const start = bucketStart(trade.time, interval);
      current = {
        start,
        end: bucketEnd(start, interval),
        open: trade.price,
        high: trade.price,
        low: trade.price,
        close: trade.price,
        volume: ZERO,
        quoteVolume: ZERO,
      };
    }
    if (compareCanonical(trade.price, current.high) > 0) current.high = trade.price;
    if (compareCanonical(trade.price, current.low) < 0) current.low = trade.price;
    current.close = trade.price;
    const amount = toDecimal(trade.amount);
    current.volume = current.volume.plus(amount);
    current.quoteVolume = current.quoteVolume.plus(amount.times(toDecimal(trade.price)));
  }
  if (current) candles.push(close(current));
  return candles;
}
