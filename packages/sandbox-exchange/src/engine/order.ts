import { Side } from './side';

export type OrderType = 'limit' | 'market';

/** gtc rests until cancelled; ioc fills what it can at once and cancels the rest; fok fills in full at once or not at all. */
export type TimeInForce = 'gtc' | 'ioc' | 'fok';

export interface OrderRequest {
  readonly accountId: number;
  readonly side: Side;
  readonly type: OrderType;
  /** Limit price in price units; ignored for market orders. */
  readonly price?: bigint;
  /** Base amount in amount units, greater than zero. */
  readonly amount: bigint;
  readonly timeInForce: TimeInForce;
  readonly clientOrderId?: string;
}

/** An order of the book. `remaining` is the only field that changes while it rests. */
export interface Order {
  readonly id: number;
  readonly accountId: number;
  readonly side: Side;
  readonly type: OrderType;
  readonly price: bigint;
  readonly amount: bigint;
  readonly timeInForce: TimeInForce;
  readonly clientOrderId?: string;
  readonly createdAt: number;
  remaining: bigint;
}
