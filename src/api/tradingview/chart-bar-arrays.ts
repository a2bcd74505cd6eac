import { Candle } from '../../market/candle-stats';
import { toFixedScale } from '../../market/decimal';
import { JsonNumberList } from '../../market/json-number';
import { MarketInfo } from '../../market/market-info';
import { unixSecondsOf } from './chart-query';

/** Bars as TradingView's and the UDF datafeed's column arrays. */
export interface BarArrays {
  readonly t: JsonNumberList;
  readonly o: JsonNumberList;
  readonly h: JsonNumberList;
  readonly l: JsonNumberList;
  readonly c: JsonNumberList;
  readonly v: JsonNumberList;
}

/**
 * Times in Unix seconds; prices at the market's price scale and volumes (base asset) at its amount
 * scale, as the listings publish them, written as bare JSON numbers with exactly those digits.
 */
export function barArrays(market: MarketInfo, bars: readonly Candle[]): BarArrays {
  const { priceScale, amountScale } = market;
  const column = (text: (bar: Candle) => string) => new JsonNumberList(bars.map(text));
  return {
    t: column((bar) => String(unixSecondsOf(bar.start))),
    o: column((bar) => toFixedScale(bar.open, priceScale)),
    h: column((bar) => toFixedScale(bar.high, priceScale)),
    l: column((bar) => toFixedScale(bar.low, priceScale)),
    c: column((bar) => toFixedScale(bar.close, priceScale)),
    v: column((bar) => toFixedScale(bar.volume, amountScale)),
  };
}
