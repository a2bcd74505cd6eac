import { Candle } from '../../market/candle-stats';
import { canonicalDecimal } from '../../market/decimal';
import { HistoryQuery } from '../../market/history-query';
import { CandleTrade, tradeCandles } from '../../market/trade-candles';
import { TradeFigures } from '../views/trade-figures';

/**
 * The candles the exchange's `/history` would give for `query`, from the trades the gateway holds
 * (those of the last 24 hours, newest first): the trades with `from <= time < to`, in buckets that
 * hold at least one trade, oldest first, the newest `count` of them. A bucket cut by the range or
 * by the 24-hour window holds only the trades inside both.
 */
export function historyCandles(trades: readonly TradeFigures[], query: HistoryQuery): Candle[] {
  const inRange: CandleTrade[] = [];
  for (let i = trades.length - 1; i >= 0; i--) {
    const trade = trades[i];
    if (trade.time < query.from || trade.time >= query.to) continue;
    // The published figures are the exchange's own decimals padded to the market's scales.
    inRange.push({
      time: trade.time,
      price: canonicalDecimal(trade.price),
      amount: canonicalDecimal(trade.baseVolume),
    });
  }
  const candles = tradeCandles(inRange, query.interval);
  return candles.slice(Math.max(0, candles.length - query.count));
}
