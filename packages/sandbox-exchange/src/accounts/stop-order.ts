import { Side } from '../engine/side';

export type StopOrderStatus = 'WaitingForActivation' | 'Activated' | 'Rejected';

export type StopOrderType = 'market' | 'limit';

export type StopTimeInForce = 'gtc' | 'ioc' | 'fok';

/**
 * Which way the last price must move to reach the activation price: decided at creation from the
 * market's last price (`rise` when the activation price is above it).
 */
export type StopTrigger = 'rise' | 'fall';

/** A stop order (spec 2.5): placed as a market or limit order once the last price reaches `activationPrice`. */
export interface AccountStopOrder {
  readonly id: number;
  readonly accountId: number;
  readonly instrument: string;
  readonly orderType: StopOrderType;
  readonly timeInForce: StopTimeInForce;
  readonly side: Side;
  /** Units of the market's scales. */
  readonly requestedAmount: bigint;
  readonly requestedPrice: bigint;
  readonly activationPrice: bigint;
  readonly trigger: StopTrigger;
  /** Unix milliseconds. */
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly status: StopOrderStatus;
  /** Id of the order placed on activation. */
  readonly activatedOrderId?: number;
  /** Why the activation failed. */
  readonly activationError?: string;
  /** Trailing stops: the distance the activation price keeps from the last price, which it follows. */
  readonly trailingAmount?: bigint;
  /** Trailing limit stops: how far beyond the activation price the limit order is placed. */
  readonly limitOffset?: bigint;
}

export type MutableStopOrder = { -readonly [K in keyof AccountStopOrder]: AccountStopOrder[K] };

/** Active stop orders one account may have at a time (spec 8). */
export const MAX_ACTIVE_STOP_ORDERS = 1000;
