import { Order } from './order';
import { Side } from './side';

/** All resting orders at one price, oldest first. */
export class PriceLevel {
  total = 0n;
  readonly orders: Order[] = [];

  constructor(readonly price: bigint) {}

  add(order: Order): void {
    this.orders.push(order);
    this.total += order.remaining;
  }

  remove(order: Order): boolean {
    const index = this.orders.indexOf(order);
    if (index < 0) return false;
    this.orders.splice(index, 1);
    this.total -= order.remaining;
    return true;
  }
}

/**
 * One side of a price-time-priority book. Levels are kept sorted with the best level last, so that
 * the frequent changes near the touch shift few array elements.
 */
export class BookSide {
  private readonly levels: PriceLevel[] = [];

  constructor(readonly side: Side) {}

  get size(): number {
    return this.levels.length;
  }

  best(): PriceLevel | undefined {
    return this.levels[this.levels.length - 1];
  }

  find(price: bigint): PriceLevel | undefined {
    const index = this.search(price);
    const level = this.levels[index];
    return level !== undefined && level.price === price ? level : undefined;
  }

  /** The level at a price, created empty if the side had none. */
  levelAt(price: bigint): PriceLevel {
    const index = this.search(price);
    const existing = this.levels[index];
    if (existing !== undefined && existing.price === price) return existing;
    const level = new PriceLevel(price);
    this.levels.splice(index, 0, level);
    return level;
  }

  removeLevel(level: PriceLevel): void {
    const index = this.search(level.price);
    if (this.levels[index] === level) this.levels.splice(index, 1);
  }

  /** Levels from the best price outwards. */
  *bestFirst(): IterableIterator<PriceLevel> {
    for (let i = this.levels.length - 1; i >= 0; i--) yield this.levels[i];
  }

  /** True when `a` is a better price than `b` for this side (higher bid, lower ask). */
  isBetter(a: bigint, b: bigint): boolean {
    return this.side === Side.Buy ? a > b : a < b;
  }

  /** Index of the first level not worse-ordered than `price` (levels run from worst to best). */
  private search(price: bigint): number {
    let low = 0;
    let high = this.levels.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.isBetter(price, this.levels[middle].price)) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}
