import { Side } from '../engine/side';

/** One execution of a user's order: its side of a public trade. */
export interface AccountTrade {
  /** Id of the public trade (the trade record's `tradeSeq`). */
  readonly tradeId: number;
  readonly orderId: number;
  readonly accountId: number;
  readonly instrument: string;
  readonly side: Side;
  /** Price and amount in units of the market's scales. */
  readonly price: bigint;
  readonly amount: bigint;
  /** Quote value and fee paid, in balance units. */
  readonly value: bigint;
  readonly commission: bigint;
  readonly maker: boolean;
  /** Unix milliseconds. */
  readonly time: number;
}
