import { LevelMeaning } from 'exchange-fixtures';
import { LevelUpdate } from '../../market/book-update';

export { FrameMeaning, LevelMeaning, readSpecFixture, SpecFixture, unixMs } from 'exchange-fixtures';

/** The level updates a book message carries for `bids` then `asks`, in their order. */
export function levelUpdates(book: {
  readonly bids: readonly LevelMeaning[];
  readonly asks: readonly LevelMeaning[];
}): LevelUpdate[] {
  return [
    ...book.bids.map(({ price, amount }) => ({ side: 'bid' as const, price, amount })),
    ...book.asks.map(({ price, amount }) => ({ side: 'ask' as const, price, amount })),
  ];
}
