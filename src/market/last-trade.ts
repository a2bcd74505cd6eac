import { ownText } from './own-text';
import { Trade } from './trade';
import { compareTrades } from './trade-window';

/**
 * The newest trade known of a market, of any age: it outlives the 24-hour window, so that a market
 * that stopped trading still has a last price. Price in canonical decimal text.
 */
export interface LastTrade {
  readonly price: string;
  /** Unix milliseconds; 0 when the exchange reported the price without its time. */
  readonly time: number;
}

/**
 * The newest of `known` and `trades` in window order (time, then trade id), whatever their age, so
 * that trades older than the window (a subscription's snapshot of a quiet market) still count.
 */
export function newestTrade(known: Trade | undefined, trades: readonly Trade[]): Trade | undefined {
  let newest = known;
  for (const trade of trades) if (newest === undefined || compareTrades(newest, trade) < 0) newest = trade;
  if (newest === known || newest === undefined) return newest;
  // Held for as long as the market stays quiet: it must not keep the frame it came in.
  return {
    ...newest,
    id: ownText(newest.id),
    price: ownText(newest.price),
    instrument: ownText(newest.instrument),
  };
}

export function lastTradeOf(trade: Trade): LastTrade {
  return { price: trade.price, time: trade.time };
}
