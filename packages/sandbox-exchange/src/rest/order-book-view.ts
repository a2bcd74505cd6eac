import { LevelView } from '../engine/matching-engine';
import { Side } from '../engine/side';
import { JsonNumber, jsonNumber } from '../http/json-number';
import { MarketSimulator } from '../simulation/market-simulator';

export interface BookEntryView {
  readonly amount: JsonNumber;
  readonly price: JsonNumber;
}

/** The order book of spec 2.2 as the REST snapshot sends it. */
export interface OrderBookView {
  readonly instrument: string;
  readonly bids: BookEntryView[];
  readonly asks: BookEntryView[];
  readonly version: number;
  readonly askTotalAmount: JsonNumber;
  readonly bidTotalAmount: JsonNumber;
  readonly snapshot: true;
}

/**
 * The whole book of a market at this moment, both sides sorted ascending by price as the exchange
 * sends them (so the best bid is the last bid and the best ask the first ask).
 */
export function orderBookSnapshot(market: MarketSimulator): OrderBookView {
  const { priceScale, amountScale } = market.spec;
  const entry = (level: LevelView): BookEntryView => ({
    amount: jsonNumber(level.amount, amountScale),
    price: jsonNumber(level.price, priceScale),
  });
  const { engine } = market;
  return {
    instrument: market.instrument,
    bids: [...engine.levels(Side.Buy)].reverse().map(entry),
    asks: [...engine.levels(Side.Sell)].map(entry),
    version: market.version,
    askTotalAmount: jsonNumber(engine.totalAmount(Side.Sell), amountScale),
    bidTotalAmount: jsonNumber(engine.totalAmount(Side.Buy), amountScale),
    snapshot: true,
  };
}
