import { JsonNumber, jsonNumber } from '../http/json-number';
import { SandboxMarketSpec } from '../market/market-spec';
import { SandboxTrade } from '../simulation/sandbox-trade';

/**
 * A public trade as the gateway's trade record (spec 2.10), positional: TradeId, InstrumentId,
 * Quantity, Price, Order1 (maker order), Order2 (taker order), TradeTime (Unix ms), Direction,
 * TakerSide, IsBlockTrade, ClientOrderId.
 */
export type TradeRow = [
  tradeId: number,
  instrumentId: number,
  quantity: JsonNumber,
  price: JsonNumber,
  makerOrderId: number,
  takerOrderId: number,
  tradeTime: number,
  direction: number,
  takerSide: number,
  isBlockTrade: false,
  clientOrderId: 0,
];

export function tradeRow(trade: SandboxTrade, spec: SandboxMarketSpec): TradeRow {
  return [
    trade.id,
    trade.instrumentId,
    jsonNumber(trade.amount, spec.amountScale),
    jsonNumber(trade.price, spec.priceScale),
    trade.makerOrderId,
    trade.takerOrderId,
    trade.time,
    trade.direction,
    trade.takerSide,
    false,
    0,
  ];
}
