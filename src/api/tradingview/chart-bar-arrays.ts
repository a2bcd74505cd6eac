import { Candle } from '../../market/candle-stats';
import { toFixedScale } from '../../market/decimal';
import { JsonNumber } from '../../market/json-number';
import { MarketInfo } from '../../market/market-info';
import { unixSecondsOf } from './chart-query';

/** Bars as TradingView's and the UDF datafeed's column arrays. */
export interface BarArrays {
  readonly t: number[];
  readonly o: JsonNumber[];
  readonly h: JsonNumber[];
  readonly l: JsonNumber[];
  readonly c: JsonNumber[];
  readonly v: JsonNumber[];
}

/**
 * Times in Unix seconds; prices at the market's price scale and volumes (base asset) at its amount
 * scale, as the listings publish them, written as bare JSON numbers with exactly those digits.
 */
export function barArrays(market: MarketInfo, bars: readonly Candle[]): BarArrays {
  const price = (text: string) => new JsonNumber(toFixedScale(text, market.priceScale));
  const arrays: BarArrays = { t: [], o: [], h: [], l: [], c: [], v: [] };
  for (const bar of bars) {
    arrays.t.push(unixSecondsOf(bar.start));
    arrays.o.push(price(bar.open));
    arrays.h.push(price(bar.high));
    arrays.l.push(price(bar.low));
    arrays.c.push(price(bar.close));
    arrays.v.push(new JsonNumber(toFixedScale(bar.volume, market.amountScale)));
  }
  return arrays;
}
