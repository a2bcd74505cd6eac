import { AccountOrder } from '../accounts/account-order';
import { BALANCE_SCALE } from '../accounts/balance-units';
import { Side } from '../engine/side';
import { pow10 } from '../engine/units';
import { JsonNumber, jsonNumber } from '../http/json-number';
import { SandboxMarketSpec } from '../market/market-spec';

/** The REST order object (spec 2.4). */
export interface OrderView {
  readonly orderId: string;
  readonly total: JsonNumber;
  readonly orderType: number;
  readonly commission: JsonNumber;
  readonly createdAt: string;
  readonly unitsFilled: JsonNumber;
  readonly isPending: boolean;
  readonly status: string;
  readonly type: 'buy' | 'sell';
  readonly amount: JsonNumber;
  readonly remaining: JsonNumber;
  readonly fillFactor: JsonNumber;
  readonly executionPrice: JsonNumber;
  readonly requestedPrice: JsonNumber;
  readonly price: JsonNumber;
  readonly isLimit: boolean;
  readonly instrument: string;
  readonly side: number;
  readonly timeInForce: number;
  readonly cancellationDate: null;
  readonly rejectDetails: string | null;
  readonly source: number;
  readonly clientOrderId: string | null;
}

/** Codes of `orderType` and `timeInForce`: 0 good-til-cancelled, 1 immediate-or-cancel, 2 fill-or-kill. */
const TIME_IN_FORCE = { gtc: 0, ioc: 1, fok: 2 } as const;

/** `numerator / denominator` rounded half up to `scale` decimals, as units at that scale. */
function ratio(numerator: bigint, denominator: bigint): bigint {
  return (numerator * 2n + denominator) / (denominator * 2n);
}

/** The volume-weighted price of the fills, rounded half up to the market's price scale; 0 before any. */
export function averagePrice(order: AccountOrder, spec: SandboxMarketSpec): bigint {
  if (order.filled === 0n) return 0n;
  // total is in balance units: price x amount at scale 54; price units = total x 10^(A + P - 54) / filled.
  return ratio(order.total * pow10(spec.amountScale + spec.priceScale), order.filled * pow10(BALANCE_SCALE));
}

export function orderView(order: AccountOrder, spec: SandboxMarketSpec): OrderView {
  const { amountScale, priceScale } = spec;
  const working = order.status === 'Working';
  const price = jsonNumber(order.price, priceScale);
  return {
    orderId: String(order.id),
    total: jsonNumber(order.total, BALANCE_SCALE),
    orderType: TIME_IN_FORCE[order.timeInForce],
    commission: jsonNumber(order.commission, BALANCE_SCALE),
    createdAt: new Date(order.createdAt).toISOString(),
    unitsFilled: jsonNumber(order.filled, amountScale),
    isPending: working,
    status: order.status,
    type: order.side === Side.Buy ? 'buy' : 'sell',
    amount: jsonNumber(order.amount, amountScale),
    remaining: jsonNumber(working ? order.amount - order.filled : 0n, amountScale),
    fillFactor: jsonNumber(ratio(order.filled * 10_000n, order.amount), 2),
    executionPrice: jsonNumber(averagePrice(order, spec), priceScale),
    requestedPrice: price,
    price,
    isLimit: order.type === 'limit',
    instrument: order.instrument,
    side: order.side,
    timeInForce: TIME_IN_FORCE[order.timeInForce],
    cancellationDate: null,
    rejectDetails: order.rejectDetails ?? null,
    source: order.source,
    clientOrderId: order.clientOrderId ?? null,
  };
}
