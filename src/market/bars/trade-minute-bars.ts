import { Candle } from '../candle-stats';
import { CandleTrade, tradeCandles } from '../trade-candles';
import { TradeRows } from '../trade-columns';

/** Position of the first trade of `rows` (oldest first) at or after `time`; `rows.length` when none. */
export function firstTradeAtOrAfter(rows: TradeRows, time: number): number {
  let low = 0;
  let high = rows.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (rows.timeAt(middle) < time) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * The 1-minute bars of the trades of `rows` (oldest first) with `from <= time < to`, one for each
 * minute that holds a trade, exactly as `tradeCandles` builds them. `from` and `to` are minute starts.
 */
export function tradeMinuteBars(rows: TradeRows, from: number, to: number): Candle[] {
  const first = firstTradeAtOrAfter(rows, from);
  const end = firstTradeAtOrAfter(rows, to);
  const trades = new Array<CandleTrade>(Math.max(0, end - first));
  for (let position = first; position < end; position++)
    trades[position - first] = {
      time: rows.timeAt(position),
      price: rows.priceAt(position),
      amount: rows.amountAt(position),
    };
  return tradeCandles(trades, '1m');
}
