export type BookSide = 'bid' | 'ask';

/** `[price, amount]`, canonical decimal text. */
export type PriceLevel = readonly [price: string, amount: string];

/** The new amount of one price level; amount "0" removes the level. Decimals are canonical text. */
export interface LevelUpdate {
  readonly side: BookSide;
  readonly price: string;
  readonly amount: string;
}

/** One message of a book feed: a full snapshot, or a numbered delta whose updates apply in order. */
export interface BookMessage {
  readonly instrument: string;
  readonly version: number;
  readonly snapshot: boolean;
  readonly updates: readonly LevelUpdate[];
  /** Unix milliseconds: the exchange's time of the change when the feed carries one, else the receive time. */
  readonly time: number;
}
