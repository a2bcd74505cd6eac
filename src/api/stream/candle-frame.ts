import { Static, Type } from '@sinclair/typebox';
import { UNSIGNED_DECIMAL } from '../schema/wire-parts';
import { channel, frame, INSTRUMENT, RESOLUTION, unixMs } from './frame-parts';

const CANDLES_CHANNEL = `^candles\\.${INSTRUMENT}\\.${RESOLUTION}$`;

const barPrice = (description: string) =>
  Type.String({ pattern: UNSIGNED_DECIMAL, description: `${description}, at the price scale` });

export const CandleFrame = frame(
  'a bar of the resolution: on subscribe the bar being built (if its bucket has a trade), then each change of it with closed false, the final bar with closed true once its bucket is over, and a closed bar again (closed true) when a late trade corrected it',
  {
    type: Type.Literal('candle'),
    channel: channel(CANDLES_CHANNEL, 'candles.btc_usdt.1'),
    time: unixMs("the bar's start (UTC: days at 00:00, weeks from Monday, months on the 1st)"),
    open: barPrice('the first trade price'),
    high: barPrice('the highest trade price'),
    low: barPrice('the lowest trade price'),
    close: barPrice('the last trade price'),
    volume: Type.String({
      pattern: UNSIGNED_DECIMAL,
      description: 'the base amount traded, exact, at the amount scale',
    }),
    closed: Type.Boolean({
      description: 'the bucket is over: the bar is final unless a late trade corrects it',
    }),
  },
);

export type CandleFrameBody = Static<typeof CandleFrame>;
