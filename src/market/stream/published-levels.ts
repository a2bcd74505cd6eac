import { PriceLevel } from '../book-update';
import { MarketScales, publishedLevel } from './published-level';

/** Past this many remembered prices, the memory starts over: prices the book left are forgotten. */
const MAX_REMEMBERED = 4_096;

/**
 * `publishedLevel` of one book's levels, remembering the last level written at each price: the top of
 * a book is written with every update for its checksum and mostly holds the same levels as before.
 */
export class PublishedLevels {
  private readonly byPrice = new Map<string, { amount: string; published: PriceLevel }>();

  constructor(private readonly scales: MarketScales) {}

  of(level: PriceLevel): PriceLevel {
    const [price, amount] = level;
    const remembered = this.byPrice.get(price);
    if (remembered?.amount === amount) return remembered.published;
    const published = publishedLevel(level, this.scales);
    if (this.byPrice.size >= MAX_REMEMBERED) this.byPrice.clear();
    this.byPrice.set(price, { amount, published });
    return published;
  }
}
