/** Side of the taker: `buy` took an ask, `sell` took a bid. */
export type TakerSide = 'buy' | 'sell';

/** A public trade. Decimals are canonical text; `id` is the exchange's integer trade id as text. */
export interface Trade {
  readonly id: string;
  readonly instrument: string;
  readonly price: string;
  readonly amount: string;
  readonly side: TakerSide;
  /** Unix milliseconds. */
  readonly time: number;
}
