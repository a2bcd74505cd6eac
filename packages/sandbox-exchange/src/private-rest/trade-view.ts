import { AccountTrade } from '../accounts/account-trade';
import { BALANCE_SCALE } from '../accounts/balance-units';
import { JsonNumber, jsonNumber } from '../http/json-number';
import { SandboxMarketSpec } from '../market/market-spec';

/** The REST trade record (spec 2.6): the caller's side of one trade. */
export interface TradeView {
  readonly tradeSeq: number;
  readonly tradeTime: string;
  readonly amount: JsonNumber;
  readonly executionPrice: JsonNumber;
  readonly instrument: string;
  readonly side: number;
  readonly commission: JsonNumber;
  readonly orderId: JsonNumber;
}

export function tradeView(trade: AccountTrade, spec: SandboxMarketSpec): TradeView {
  return {
    tradeSeq: trade.tradeId,
    tradeTime: new Date(trade.time).toISOString(),
    amount: jsonNumber(trade.amount, spec.amountScale),
    executionPrice: jsonNumber(trade.price, spec.priceScale),
    instrument: trade.instrument,
    side: trade.side,
    commission: jsonNumber(trade.commission, BALANCE_SCALE),
    orderId: new JsonNumber(String(trade.orderId)),
  };
}
