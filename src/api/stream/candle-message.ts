import { Candle } from '../../market/candle-stats';
import { toFixedScale } from '../../market/decimal';
import { MarketInfo } from '../../market/market-info';

/** A bar of a candles channel: open (`closed` false) while its bucket lasts, then final. */
export interface CandleMessage {
  readonly type: 'candle';
  readonly channel: string;
  /** The bar's start, Unix milliseconds. */
  readonly time: number;
  readonly open: string;
  readonly high: string;
  readonly low: string;
  readonly close: string;
  /** Base volume. */
  readonly volume: string;
  readonly closed: boolean;
}

/** The frame of `bar`: prices at the market's price scale, volume at its amount scale. */
export function candleMessage(
  channel: string,
  market: MarketInfo,
  bar: Candle,
  closed: boolean,
): CandleMessage {
  const price = (text: string) => toFixedScale(text, market.priceScale);
  return {
    type: 'candle',
    channel,
    time: bar.start,
    open: price(bar.open),
    high: price(bar.high),
    low: price(bar.low),
    close: price(bar.close),
    volume: toFixedScale(bar.volume, market.amountScale),
    closed,
  };
}
