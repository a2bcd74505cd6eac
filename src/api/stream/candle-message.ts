import { Candle } from '../../market/candle-stats';
import { toFixedScale } from '../../market/decimal';
import { MarketInfo } from '../../market/market-info';
import { CandleFrameBody } from './candle-frame';

/** A bar of a candles channel: open (`closed` false) while its bucket lasts, then final. */
export type CandleMessage = CandleFrameBody;

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
