import { Side } from '../engine/side';
import { jsonNumber, JsonNumber } from '../http/json-number';
import { SandboxMarketSpec } from '../market/market-spec';
import { SandboxTrade, TickDirection } from '../simulation/sandbox-trade';

/**
 * A public trade as SubscribeTrades and its events send it: `[TradeId, InstrumentId, Quantity,
 * Price, Order1, Order2, TradeTime, Direction, TakerSide, IsBlockTrade, ClientOrderId]`.
 */
export type TradeRow = [
  tradeId: number,
  instrumentId: number,
  quantity: JsonNumber,
  price: JsonNumber,
  order1: number,
  order2: number,
  tradeTime: number,
  direction: TickDirection,
  takerSide: Side,
  isBlockTrade: boolean,
  clientOrderId: number,
];

/**
 * Order1 is the buy order and Order2 the sell order. ClientOrderId is 0: public trades are not tied
 * to the subscriber's orders.
 */
export function tradeRow(trade: SandboxTrade, spec: SandboxMarketSpec): TradeRow {
  const takerBuys = trade.takerSide === Side.Buy;
  return [
    trade.id,
    trade.instrumentId,
    jsonNumber(trade.amount, spec.amountScale),
    jsonNumber(trade.price, spec.priceScale),
    takerBuys ? trade.takerOrderId : trade.makerOrderId,
    takerBuys ? trade.makerOrderId : trade.takerOrderId,
    trade.time,
    trade.direction,
    trade.takerSide,
    false,
    0,
  ];
}
