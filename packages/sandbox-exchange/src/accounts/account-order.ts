import { OrderType, TimeInForce } from '../engine/order';
import { Side } from '../engine/side';

/** Order status of the private REST (spec 3.1). */
export type OrderStatus = 'Working' | 'Rejected' | 'Cancelled' | 'Completed';

/** 0: placed by the user; 1: placed by the activation of a stop order (spec 2.4 `source`). */
export type OrderSource = 0 | 1;

/**
 * A user's order as the accounts keep it, from placement to its final status. Prices and amounts are
 * in units of the market's scales; `total` is the traded quote value (price x amount units) and
 * `commission` the fees paid, both in balance units.
 */
export interface AccountOrder {
  readonly id: number;
  readonly accountId: number;
  readonly instrument: string;
  readonly side: Side;
  readonly type: OrderType;
  readonly timeInForce: TimeInForce;
  /** Limit price; 0 for a market order. */
  readonly price: bigint;
  readonly amount: bigint;
  readonly clientOrderId?: string;
  /** A reserve order's slice size: the amount the book shows of it at a time. */
  readonly displayAmount?: bigint;
  readonly source: OrderSource;
  /** Unix milliseconds. */
  readonly createdAt: number;
  readonly status: OrderStatus;
  readonly filled: bigint;
  readonly total: bigint;
  readonly commission: bigint;
  readonly updatedAt: number;
  readonly rejectDetails?: string;
  /** Asset this order locks while it works: quote for a buy, base for a sell. */
  readonly reserveAsset: string;
  /** What it locks now, in balance units (0 once it no longer works). */
  readonly reserved: bigint;
}

export type MutableAccountOrder = { -readonly [K in keyof AccountOrder]: AccountOrder[K] };
