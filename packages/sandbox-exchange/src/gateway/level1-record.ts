import { Side } from '../engine/side';
import { jsonNumber, JsonNumber } from '../http/json-number';
import { MarketSimulator } from '../simulation/market-simulator';
import { OMS_ID } from './gateway-catalog';

/** SubscribeLevel1 reply and Level1UpdateEvent (spec 2.10). */
export interface Level1Record {
  readonly OMSId: number;
  readonly InstrumentId: number;
  readonly BestBid: JsonNumber;
  readonly BestOffer: JsonNumber;
  readonly LastTradedPx: JsonNumber;
  readonly LastTradedQty: JsonNumber;
  readonly LastTradeTime: number;
  readonly SessionOpen: JsonNumber;
  readonly SessionHigh: JsonNumber;
  readonly SessionLow: JsonNumber;
  readonly SessionClose: JsonNumber;
  readonly Volume: JsonNumber;
  readonly CurrentDayVolume: JsonNumber;
  readonly CurrentDayNumTrades: number;
  readonly CurrentDayPxChange: JsonNumber;
  readonly Rolling24HrVolume: JsonNumber;
  readonly Rolling24HrNumTrades: number;
  readonly Rolling24HrPxChange: JsonNumber;
  readonly TimeStamp: number;
}

/**
 * The Level 1 record of a market at `now`. Session values cover the UTC day of `now` (the markets
 * trade around the clock), rolling values the 24 hours before `now`; price changes are the last
 * price of the window minus its first. Values without trades are 0.
 */
export function level1Record(market: MarketSimulator, now: number): Level1Record {
  const { priceScale, amountScale, instrumentId } = market.spec;
  const price = (units: bigint | undefined) => jsonNumber(units ?? 0n, priceScale);
  const amount = (units: bigint) => jsonNumber(units, amountScale);
  const last = market.tradeLog.last();
  const session = market.tradeLog.session(now);
  const rolling = market.tradeLog.rolling24h(now);
  const change = (first?: bigint, latest?: bigint) =>
    price(first !== undefined && latest !== undefined ? latest - first : 0n);
  return {
    OMSId: OMS_ID,
    InstrumentId: instrumentId,
    BestBid: price(market.bestPrice(Side.Buy)),
    BestOffer: price(market.bestPrice(Side.Sell)),
    LastTradedPx: price(last?.price),
    LastTradedQty: amount(last?.amount ?? 0n),
    LastTradeTime: last?.time ?? 0,
    SessionOpen: price(session.first?.price),
    SessionHigh: price(session.high),
    SessionLow: price(session.low),
    SessionClose: price(session.last?.price),
    Volume: amount(session.volume),
    CurrentDayVolume: amount(session.volume),
    CurrentDayNumTrades: session.count,
    CurrentDayPxChange: change(session.first?.price, session.last?.price),
    Rolling24HrVolume: amount(rolling.volume),
    Rolling24HrNumTrades: rolling.count,
    Rolling24HrPxChange: change(rolling.first?.price, rolling.last?.price),
    TimeStamp: now,
  };
}

/** What a Level1UpdateEvent reports a change of: best bid, best offer and the last trade. */
export function level1Key(market: MarketSimulator): string {
  return `${market.bestPrice(Side.Buy) ?? ''}|${market.bestPrice(Side.Sell) ?? ''}|${market.tradeLog.last()?.id ?? ''}`;
}
