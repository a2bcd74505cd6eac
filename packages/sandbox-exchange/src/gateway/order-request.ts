import { PlaceOrderRequest, StopOrderRequest } from '../accounts/sandbox-accounts';
import { TimeInForce } from '../engine/order';
import { Side } from '../engine/side';
import { canonicalDecimal, InvalidDecimalError } from '../wire/decimal-text';
import { Payload } from './frame-codec';
import { GatewayCallError, GatewayErrorCode } from './gateway-result';
import { optionalInteger } from './payload-fields';

/** SendOrder's `OrderType` codes. */
export enum GatewayOrderType {
  Market = 1,
  Limit = 2,
  StopMarket = 3,
  StopLimit = 4,
  TrailingStopMarket = 5,
  TrailingStopLimit = 6,
}

export const ORDER_TYPE_NAMES: Record<GatewayOrderType, string> = {
  [GatewayOrderType.Market]: 'Market',
  [GatewayOrderType.Limit]: 'Limit',
  [GatewayOrderType.StopMarket]: 'StopMarket',
  [GatewayOrderType.StopLimit]: 'StopLimit',
  [GatewayOrderType.TrailingStopMarket]: 'TrailingStopMarket',
  [GatewayOrderType.TrailingStopLimit]: 'TrailingStopLimit',
};

/** `TimeInForce` codes the sandbox takes: 1 GTC, 3 IOC, 4 FOK. */
const TIME_IN_FORCE: Readonly<Record<number, TimeInForce>> = { 1: 'gtc', 3: 'ioc', 4: 'fok' };
const PEG_LAST = 1;

/** What a SendOrder asks for, in the accounts' terms: an order now, or a stop order. */
export type GatewayOrderRequest =
  | { readonly kind: 'order'; readonly orderType: GatewayOrderType; readonly request: PlaceOrderRequest }
  | { readonly kind: 'stop'; readonly orderType: GatewayOrderType; readonly request: StopOrderRequest };

function invalid(detail: string): never {
  throw new GatewayCallError(GatewayErrorCode.InvalidRequest, detail);
}

/** A decimal field sent as a JSON number or as text, as plain decimal text; undefined when absent. */
export function decimalField(payload: Payload, field: string): string | undefined {
  const value = payload[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' && typeof value !== 'string') invalid(`${field} must be a number`);
  if (typeof value === 'number' && !Number.isFinite(value)) invalid(`${field} must be a number`);
  try {
    return canonicalDecimal(String(value));
  } catch (error) {
    if (error instanceof InvalidDecimalError) invalid(`${field} must be a non-negative number`);
    throw error;
  }
}

function positive(payload: Payload, field: string): string {
  const value = decimalField(payload, field);
  if (value === undefined || value === '0') invalid(`${field} must be greater than 0`);
  return value;
}

/**
 * Reads SendOrder's fields (spec 4.6) for an instrument:
 * - `Side` 0 Buy or 1 Sell (2 Short and 3 Unknown are refused); `Quantity` > 0;
 * - `OrderType` 1 Market, 2 Limit (`LimitPrice` > 0), 3 StopMarket and 4 StopLimit (`StopPrice` > 0,
 *   StopLimit also `LimitPrice`), 5 TrailingStopMarket and 6 TrailingStopLimit (`TrailingAmount` > 0,
 *   `LimitOffset` >= 0, default 0); stop and trailing orders follow the last price (`PegPriceType` 1,
 *   the default; 2 Bid, 3 Ask and 4 Midpoint are refused);
 * - `TimeInForce` 1 GTC, 3 IOC, 4 FOK; default GTC for limit orders and IOC for market orders, GTC
 *   on a market order counts as IOC; a stop limit order is GTC;
 * - `UseDisplayQuantity` true with `DisplayQuantity` > 0 makes a Limit order a reserve order;
 * - `OrderIdOCO` links a Market or Limit order to a working order whose execution cancels it.
 */
export function parseOrderRequest(
  payload: Payload,
  instrument: string,
  clientOrderId?: string,
): GatewayOrderRequest {
  const sideCode = optionalInteger(payload, 'Side');
  if (sideCode !== Side.Buy && sideCode !== Side.Sell) invalid('Side must be 0 (Buy) or 1 (Sell)');
  const side: Side = sideCode;
  const orderType = optionalInteger(payload, 'OrderType');
  if (orderType === undefined || !(orderType in ORDER_TYPE_NAMES))
    invalid('OrderType must be 1 (Market) to 6 (TrailingStopLimit)');
  const amount = positive(payload, 'Quantity');
  const tifCode = optionalInteger(payload, 'TimeInForce');
  const given = tifCode === undefined || tifCode === 0 ? undefined : TIME_IN_FORCE[tifCode];
  if (tifCode !== undefined && tifCode !== 0 && given === undefined)
    invalid('TimeInForce must be 1 (GTC), 3 (IOC) or 4 (FOK)');
  const ocoOrderId = optionalInteger(payload, 'OrderIdOCO') || undefined;
  const client = clientOrderId ? { clientOrderId } : {};

  if (orderType === GatewayOrderType.Market || orderType === GatewayOrderType.Limit) {
    const isLimit = orderType === GatewayOrderType.Limit;
    let displayAmount: string | undefined;
    if (payload.UseDisplayQuantity === true) {
      if (!isLimit) invalid('UseDisplayQuantity is for Limit orders');
      displayAmount = positive(payload, 'DisplayQuantity');
    }
    return {
      kind: 'order',
      orderType,
      request: {
        instrument,
        side,
        type: isLimit ? 'limit' : 'market',
        amount,
        ...(isLimit ? { price: positive(payload, 'LimitPrice') } : {}),
        timeInForce: given ?? (isLimit ? 'gtc' : 'ioc'),
        ...client,
        ...(displayAmount !== undefined ? { displayAmount } : {}),
        ...(ocoOrderId !== undefined ? { ocoOrderId } : {}),
      },
    };
  }

  if (ocoOrderId !== undefined) invalid('OrderIdOCO is for Market and Limit orders');
  const peg = optionalInteger(payload, 'PegPriceType');
  if (peg !== undefined && peg !== 0 && peg !== PEG_LAST)
    invalid('PegPriceType must be 1 (Last): stop orders follow the last price');
  const limitStop =
    orderType === GatewayOrderType.StopLimit || orderType === GatewayOrderType.TrailingStopLimit;
  const trailing =
    orderType === GatewayOrderType.TrailingStopMarket || orderType === GatewayOrderType.TrailingStopLimit;
  if (limitStop && given !== undefined && given !== 'gtc') invalid('a stop limit order is GTC');
  return {
    kind: 'stop',
    orderType,
    request: {
      instrument,
      orderType: limitStop ? 'limit' : 'market',
      side,
      requestedAmount: amount,
      requestedPrice: orderType === GatewayOrderType.StopLimit ? positive(payload, 'LimitPrice') : '0',
      activationPrice: trailing ? '0' : positive(payload, 'StopPrice'),
      timeInForce: limitStop ? 'gtc' : given === 'fok' ? 'fok' : 'ioc',
      ...(trailing
        ? {
            trailing: {
              amount: positive(payload, 'TrailingAmount'),
              ...(limitStop ? { limitOffset: decimalField(payload, 'LimitOffset') ?? '0' } : {}),
            },
          }
        : {}),
    },
  };
}
