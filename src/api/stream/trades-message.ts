import { TakerSide } from '../../market/trade';
import { TradeFigures } from '../views/trade-figures';

/** A trade as the stream sends it: the figures of `/trades/{instrument}` under the stream's names. */
export interface StreamTrade {
  readonly id: string;
  readonly price: string;
  readonly amount: string;
  readonly side: TakerSide;
  /** Unix milliseconds. */
  readonly time: number;
}

/** New trades of one instrument, oldest first. */
export interface TradesMessage {
  readonly type: 'trades';
  readonly channel: string;
  readonly trades: readonly StreamTrade[];
}

/** Trades may have been missed: the reader catches up through `/trades/{instrument}`. */
export interface TradesStatusMessage {
  readonly type: 'status';
  readonly channel: string;
  readonly state: 'resyncing';
}

export type TradesChannelMessage = TradesMessage | TradesStatusMessage;

export function streamTrade(figures: TradeFigures): StreamTrade {
  return {
    id: figures.id,
    price: figures.price,
    amount: figures.baseVolume,
    side: figures.side,
    time: figures.time,
  };
}
