import { AccountOrder } from '../accounts/account-order';
import { AccountTrade } from '../accounts/account-trade';
import { AssetBalance } from '../accounts/balance-book';
import { BALANCE_SCALE } from '../accounts/balance-units';
import { AccountStopOrder } from '../accounts/stop-order';
import { Side } from '../engine/side';
import { jsonNumber, JsonNumber } from '../http/json-number';
import { averagePrice } from '../private-rest/order-view';
import { SandboxMarketSpec } from '../market/market-spec';
import { dotNetTicks } from '../wire/dotnet-ticks';
import { OMS_ID } from './gateway-catalog';
import { clientOrderLong } from './order-client-id';

export type OrderState = 'Working' | 'Rejected' | 'Canceled' | 'FullyExecuted';

/** A gateway order (GetOpenOrders, GetOrderStatus, OrderStateEvent). */
export interface GatewayOrderRecord {
  readonly OMSId: number;
  readonly Side: 'Buy' | 'Sell';
  readonly OrderId: number;
  readonly Price: JsonNumber;
  /** What is left to fill while it works, 0 afterwards. */
  readonly Quantity: JsonNumber;
  readonly DisplayQuantity: JsonNumber;
  readonly Instrument: number;
  readonly Account: number;
  readonly OrderType: string;
  readonly ClientOrderId: JsonNumber;
  readonly OrderState: OrderState;
  readonly ReceiveTime: number;
  readonly ReceiveTimeTicks: JsonNumber;
  readonly LastUpdatedTime: number;
  readonly LastUpdatedTimeTicks: JsonNumber;
  readonly OrigQuantity: JsonNumber;
  readonly QuantityExecuted: JsonNumber;
  readonly GrossValueExecuted: JsonNumber;
  readonly AvgPrice: JsonNumber;
  readonly ChangeReason: string;
  readonly OrigOrderId: number;
  readonly RejectReason: string;
  readonly StopPrice: JsonNumber;
  readonly PegPriceType: 'Last' | 'Unknown';
  readonly PegOffset: JsonNumber;
  readonly PegLimitOffset: JsonNumber;
  readonly TimeInForce: 'GTC' | 'IOC' | 'FOK';
  readonly OrderIdOCO: number;
  readonly IsQuote: boolean;
  readonly UseMargin: boolean;
}

const STATES: Record<AccountOrder['status'], OrderState> = {
  Working: 'Working',
  Rejected: 'Rejected',
  Cancelled: 'Canceled',
  Completed: 'FullyExecuted',
};

const TIME_IN_FORCE = { gtc: 'GTC', ioc: 'IOC', fok: 'FOK' } as const;

function ticks(unixMs: number): JsonNumber {
  return new JsonNumber(dotNetTicks(unixMs).toString());
}

/** How an order came to its state, in the gateway's words. */
function changeReason(order: AccountOrder): string {
  if (order.status === 'Rejected') return 'NewInputRejected';
  if (order.status === 'Cancelled')
    return order.type === 'market' || order.timeInForce !== 'gtc'
      ? 'SystemCanceled_NoMoreMarket'
      : 'UserModified';
  return order.filled > 0n ? 'Trade' : 'NewInputAccepted';
}

export interface OrderLinks {
  /** The stop order that placed this order, if any. */
  readonly stop?: AccountStopOrder;
  readonly ocoOrderId?: number;
}

export function orderRecord(
  order: AccountOrder,
  spec: SandboxMarketSpec,
  links: OrderLinks = {},
): GatewayOrderRecord {
  const { amountScale, priceScale } = spec;
  const working = order.status === 'Working';
  const stop = links.stop;
  return {
    OMSId: OMS_ID,
    Side: order.side === Side.Buy ? 'Buy' : 'Sell',
    OrderId: order.id,
    Price: jsonNumber(order.price, priceScale),
    Quantity: jsonNumber(working ? order.amount - order.filled : 0n, amountScale),
    DisplayQuantity: jsonNumber(
      order.displayAmount ?? (working ? order.amount - order.filled : 0n),
      amountScale,
    ),
    Instrument: spec.instrumentId,
    Account: order.accountId,
    OrderType: stop ? stopOrderType(stop) : order.type === 'limit' ? 'Limit' : 'Market',
    ClientOrderId: new JsonNumber(clientOrderLong(order.clientOrderId).toString()),
    OrderState: STATES[order.status],
    ReceiveTime: order.createdAt,
    ReceiveTimeTicks: ticks(order.createdAt),
    LastUpdatedTime: order.updatedAt,
    LastUpdatedTimeTicks: ticks(order.updatedAt),
    OrigQuantity: jsonNumber(order.amount, amountScale),
    QuantityExecuted: jsonNumber(order.filled, amountScale),
    GrossValueExecuted: jsonNumber(order.total, BALANCE_SCALE),
    AvgPrice: jsonNumber(averagePrice(order, spec), priceScale),
    ChangeReason: changeReason(order),
    OrigOrderId: stop ? stop.id : order.id,
    RejectReason: order.rejectDetails ?? '',
    StopPrice: jsonNumber(stop?.activationPrice ?? 0n, priceScale),
    PegPriceType: stop ? 'Last' : 'Unknown',
    PegOffset: jsonNumber(stop?.trailingAmount ?? 0n, priceScale),
    PegLimitOffset: jsonNumber(stop?.limitOffset ?? 0n, priceScale),
    TimeInForce: TIME_IN_FORCE[order.timeInForce],
    OrderIdOCO: links.ocoOrderId ?? 0,
    IsQuote: false,
    UseMargin: false,
  };
}

function stopOrderType(stop: AccountStopOrder): string {
  const trailing = stop.trailingAmount !== undefined ? 'Trailing' : '';
  return `${trailing}Stop${stop.orderType === 'limit' ? 'Limit' : 'Market'}`;
}

/**
 * A stop order that waits for its price (Working), or whose activation was refused (Rejected). Once
 * activated it is shown by the order it placed (see {@link orderRecord} with `links.stop`).
 */
export function stopRecord(
  stop: AccountStopOrder,
  spec: SandboxMarketSpec,
  clientOrderId = 0n,
): GatewayOrderRecord {
  const { amountScale, priceScale } = spec;
  const waiting = stop.status === 'WaitingForActivation';
  return {
    OMSId: OMS_ID,
    Side: stop.side === Side.Buy ? 'Buy' : 'Sell',
    OrderId: stop.id,
    Price: jsonNumber(stop.requestedPrice, priceScale),
    Quantity: jsonNumber(waiting ? stop.requestedAmount : 0n, amountScale),
    DisplayQuantity: jsonNumber(waiting ? stop.requestedAmount : 0n, amountScale),
    Instrument: spec.instrumentId,
    Account: stop.accountId,
    OrderType: stopOrderType(stop),
    ClientOrderId: new JsonNumber(clientOrderId.toString()),
    OrderState: waiting ? 'Working' : 'Rejected',
    ReceiveTime: stop.createdAt,
    ReceiveTimeTicks: ticks(stop.createdAt),
    LastUpdatedTime: stop.updatedAt,
    LastUpdatedTimeTicks: ticks(stop.updatedAt),
    OrigQuantity: jsonNumber(stop.requestedAmount, amountScale),
    QuantityExecuted: jsonNumber(0n, amountScale),
    GrossValueExecuted: jsonNumber(0n, BALANCE_SCALE),
    AvgPrice: jsonNumber(0n, priceScale),
    ChangeReason: waiting ? 'NewInputAccepted' : 'NewInputRejected',
    OrigOrderId: stop.id,
    RejectReason: stop.activationError ?? '',
    StopPrice: jsonNumber(stop.activationPrice, priceScale),
    PegPriceType: 'Last',
    PegOffset: jsonNumber(stop.trailingAmount ?? 0n, priceScale),
    PegLimitOffset: jsonNumber(stop.limitOffset ?? 0n, priceScale),
    TimeInForce: TIME_IN_FORCE[stop.timeInForce],
    OrderIdOCO: 0,
    IsQuote: false,
    UseMargin: false,
  };
}

/** OrderTradeEvent: one execution of one of the account's orders, as the gateway's account events carry it. */
export function orderTradeRecord(
  trade: AccountTrade,
  order: AccountOrder | undefined,
  spec: SandboxMarketSpec,
) {
  const { amountScale, priceScale } = spec;
  return {
    OMSId: OMS_ID,
    ExecutionId: trade.tradeId * 2 + (trade.maker ? 0 : 1),
    TradeId: trade.tradeId,
    OrderId: trade.orderId,
    AccountId: trade.accountId,
    ClientOrderId: new JsonNumber(clientOrderLong(order?.clientOrderId).toString()),
    InstrumentId: spec.instrumentId,
    Side: trade.side === Side.Buy ? 'Buy' : 'Sell',
    Quantity: jsonNumber(trade.amount, amountScale),
    RemainingQuantity: jsonNumber(order ? order.amount - order.filled : 0n, amountScale),
    Price: jsonNumber(trade.price, priceScale),
    Value: jsonNumber(trade.value, BALANCE_SCALE),
    Fee: jsonNumber(trade.commission, BALANCE_SCALE),
    TradeTime: ticks(trade.time),
    TradeTimeMS: trade.time,
    MakerTaker: trade.maker ? 'Maker' : 'Taker',
  };
}

/** AccountPositionEvent: an asset's figures of the account (`Amount` the total, `Hold` what orders lock). */
export function positionRecord(accountId: number, balance: AssetBalance, productId: number) {
  return {
    OMSId: OMS_ID,
    AccountId: accountId,
    ProductSymbol: balance.asset.toUpperCase(),
    ProductId: productId,
    Amount: jsonNumber(balance.available + balance.locked, BALANCE_SCALE),
    Hold: jsonNumber(balance.locked, BALANCE_SCALE),
    PendingDeposits: 0,
    PendingWithdraws: 0,
  };
}
