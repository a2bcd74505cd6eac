/** Why the accounts refused a request; the private interfaces map each to a status and error code. */
export type RejectionReason =
  | 'invalid_order'
  | 'unknown_market'
  | 'amount_below_minimum'
  | 'price_deviation'
  | 'duplicate_client_order_id'
  | 'insufficient_balance'
  | 'market_halted'
  | 'market_paused'
  | 'side_not_allowed'
  | 'order_not_found'
  | 'order_not_open'
  | 'stop_order_limit'
  | 'stop_order_not_found'
  | 'stop_order_not_waiting';

/**
 * A request the accounts refused. `orderId` is set when the refusal was recorded as a `Rejected`
 * order (the checks after validation: minimum, deviation, balance, market status).
 */
export class AccountRejection extends Error {
  constructor(
    readonly reason: RejectionReason,
    message: string,
    readonly orderId?: number,
  ) {
    super(message);
    this.name = 'AccountRejection';
  }
}
