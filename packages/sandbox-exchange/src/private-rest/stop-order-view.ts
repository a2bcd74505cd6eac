import { AccountStopOrder } from '../accounts/stop-order';
import { Side } from '../engine/side';
import { formatUnits } from '../engine/units';
import { SandboxMarketSpec } from '../market/market-spec';

/** The stop order object (spec 2.5); amounts and prices are strings there, as in the exchange's samples. */
export interface StopOrderView {
  readonly orderId: number;
  readonly accountId: number;
  readonly orderType: 'Market' | 'Limit';
  readonly timeInForce: string;
  readonly side: 'buy' | 'sell';
  readonly requestedAmount: string;
  readonly requestedPrice: string;
  readonly activationPrice: string;
  readonly marketId: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly status: string;
  readonly activatedOrderId?: string;
  readonly activationError?: string;
}

export function stopOrderView(stop: AccountStopOrder, spec: SandboxMarketSpec): StopOrderView {
  return {
    orderId: stop.id,
    accountId: stop.accountId,
    orderType: stop.orderType === 'market' ? 'Market' : 'Limit',
    timeInForce: stop.timeInForce,
    side: stop.side === Side.Buy ? 'buy' : 'sell',
    requestedAmount: formatUnits(stop.requestedAmount, spec.amountScale),
    requestedPrice: formatUnits(stop.requestedPrice, spec.priceScale),
    activationPrice: formatUnits(stop.activationPrice, spec.priceScale),
    marketId: stop.instrument,
    createdAt: new Date(stop.createdAt).toISOString(),
    updatedAt: new Date(stop.updatedAt).toISOString(),
    status: stop.status,
    ...(stop.activatedOrderId !== undefined ? { activatedOrderId: String(stop.activatedOrderId) } : {}),
    ...(stop.activationError !== undefined ? { activationError: stop.activationError } : {}),
  };
}
