import { BookSide, LevelUpdate, PriceLevel } from './book-update';
import { compareCanonical } from './decimal';

/** The levels of both sides that changed since the last `takeChanges()`, best first; amount "0" = removed. */
export interface BookChanges {
  /** A snapshot replaced the book since the last take; writing the full book is then the simplest write. */
  readonly replaced: boolean;
  readonly bids: PriceLevel[];
  readonly asks: PriceLevel[];
}

/** The first level where two books disagree; `amount` or `expected` is undefined where a level is missing. */
export interface LevelDifference {
  readonly side: BookSide;
  readonly price: string;
  readonly amount: string | undefined;
  readonly expected: string | undefined;
}

export interface OrderBookOptions {
  /** Record changed prices for `takeChanges()` (default true). */
  readonly trackChanges?: boolean;
}

const INITIAL_CAPACITY = 256;
/** Removed levels tolerated in the amounts Map beyond the live ones before it is rebuilt. */
const TOMBSTONE_SLACK = 1024;

/**
 * One side of the book: prices sorted worst to best, so that the busy region near the touch sits at the end
 * of the arrays where inserts and deletes shift little. A parallel Float64Array of keys makes the binary search
 * cheap; equal keys (prices a float cannot tell apart, such as 18-decimal prices) fall back to the exact order
 * of the canonical texts. Amounts live in a Map, so changing the amount of an existing level never touches the
 * arrays.
 *
 * A removed level stays in the Map as `undefined` until the removed ones outnumber the live ones: deleting keys
 * from a large V8 Map and adding them back costs microseconds per operation (its hash table keeps rehashing),
 * while overwriting a value costs tens of nanoseconds.
 */
class SortedBookSide {
  private amounts: Map<string, string | undefined> = new Map();
  private prices: string[] = [];
  private keys = new Float64Array(INITIAL_CAPACITY);

  /** `direction` 1: best = highest price (bids); -1: best = lowest price (asks). */
  constructor(private readonly direction: 1 | -1) {}

  get size(): number {
    return this.prices.length;
  }

  get(price: string): string | undefined {
    return this.amounts.get(price);
  }

  /** Live prices, worst first. */
  allPrices(): readonly string[] {
    return this.prices;
  }

  best(): string | undefined {
    return this.prices[this.prices.length - 1];
  }

  /** Sets a level; returns whether the book changed. */
  set(price: string, amount: string): boolean {
    const previous = this.amounts.get(price);
    if (previous === amount) return false;
    this.amounts.set(price, amount);
    if (previous === undefined) this.insert(price);
    return true;
  }

  /** Removes a level; returns whether it existed. */
  delete(price: string): boolean {
    if (this.amounts.get(price) === undefined) return false;
    this.amounts.set(price, undefined);
    const key = this.direction * +price;
    const index = this.lowerBound(key, price);
    const count = this.prices.length;
    this.keys.copyWithin(index, index + 1, count);
    this.prices.splice(index, 1);
    if (this.amounts.size > 2 * this.prices.length + TOMBSTONE_SLACK) this.dropTombstones();
    return true;
  }

  /**
   * Replaces every level, taking `levels` (each price once) as its own. Snapshots arrive sorted (the
   * exchange sends both sides ascending), so the order is checked in one pass and sorted only when it is
   * neither ascending nor descending.
   */
  load(levels: Map<string, string>): void {
    const prices = Array.from(levels.keys());
    const count = prices.length;
    const keys = new Float64Array(Math.max(INITIAL_CAPACITY, nextPowerOfTwo(count)));
    let ascending = true;
    let descending = true;
    for (let i = 0; i < count; i++) {
      keys[i] = this.direction * +prices[i];
      if (i > 0) {
        const order = this.compare(keys[i - 1], prices[i - 1], keys[i], prices[i]);
        if (order > 0) ascending = false;
        else descending = false;
      }
    }
    if (!ascending && descending) {
      prices.reverse();
      keys.subarray(0, count).reverse();
    } else if (!ascending) {
      const order = Array.from(prices.keys()).sort((a, b) =>
        this.compare(keys[a], prices[a], keys[b], prices[b]),
      );
      const sortedKeys = order.map((index) => keys[index]);
      const sortedPrices = order.map((index) => prices[index]);
      keys.set(sortedKeys);
      sortedPrices.forEach((price, index) => (prices[index] = price));
    }
    this.amounts = levels;
    this.prices = prices;
    this.keys = keys;
  }

  /**
   * The levels as they stand, for `changesSince` after a `load`: load replaces the arrays and the Map
   * rather than changing them, so the view stays as it was.
   */
  view(): SideView {
    return { prices: this.prices, keys: this.keys, amounts: this.amounts };
  }

  /**
   * Best first: every price of `before` and of this side now, and the `extra` prices, each once with its
   * amount now ("0" when gone). Both sides are sorted already, so they are merged in one pass.
   */
  changesSince(before: SideView, extra: ReadonlySet<string>): PriceLevel[] {
    const merged: PriceLevel[] = [];
    let old = before.prices.length - 1;
    let now = this.prices.length - 1;
    while (old >= 0 || now >= 0) {
      let price: string;
      if (old < 0) price = this.prices[now--];
      else if (now < 0) price = before.prices[old--];
      else {
        const current = this.prices[now];
        const previous = before.prices[old];
        if (current === previous) {
          price = current;
          now--;
          old--;
        } else if (this.compare(this.keys[now], current, before.keys[old], previous) > 0) {
          price = current;
          now--;
        } else {
          price = previous;
          old--;
        }
      }
      merged.push([price, this.amounts.get(price) ?? '0']);
    }
    // Prices set and removed again since the snapshot are in neither; rare enough to sort all anew.
    const others = [...extra].filter(
      (price) => before.amounts.get(price) === undefined && this.amounts.get(price) === undefined,
    );
    if (others.length === 0) return merged;
    return this.sortBestFirst([...merged.map(([price]) => price), ...others]).map((price) => [
      price,
      this.amounts.get(price) ?? '0',
    ]);
  }

  /** Best first. */
  levels(limit: number): PriceLevel[] {
    const count = Math.min(limit, this.prices.length);
    const result = new Array<PriceLevel>(count);
    const last = this.prices.length - 1;
    for (let i = 0; i < count; i++) {
      const price = this.prices[last - i];
      result[i] = [price, this.amounts.get(price) as string];
    }
    return result;
  }

  /** Best first; `prices` in any order. */
  sortBestFirst(prices: string[]): string[] {
    const keyed = prices.map((price) => ({ price, key: this.direction * +price }));
    keyed.sort((a, b) => this.compare(b.key, b.price, a.key, a.price));
    return keyed.map((level) => level.price);
  }

  private dropTombstones(): void {
    const live = new Map<string, string | undefined>();
    for (const price of this.prices) live.set(price, this.amounts.get(price));
    this.amounts = live;
  }

  private insert(price: string): void {
    const key = this.direction * +price;
    const index = this.lowerBound(key, price);
    const count = this.prices.length;
    if (count === this.keys.length) {
      const grown = new Float64Array(this.keys.length * 2);
      grown.set(this.keys);
      this.keys = grown;
    }
    this.keys.copyWithin(index + 1, index, count);
    this.keys[index] = key;
    this.prices.splice(index, 0, price);
  }

  /** The first index whose level is not worse than (key, price). */
  private lowerBound(key: number, price: string): number {
    const keys = this.keys;
    const prices = this.prices;
    let low = 0;
    let high = prices.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const candidate = keys[middle];
      if (
        candidate < key ||
        (candidate === key && this.direction * compareCanonical(prices[middle], price) < 0)
      ) {
        low = middle + 1;
      } else {
        high = middle;
      }
    }
    return low;
  }

  /** Worse before better. Float order never contradicts the exact order, it only fails to separate values. */
  private compare(keyA: number, priceA: string, keyB: number, priceB: string): number {
    if (keyA !== keyB) return keyA < keyB ? -1 : 1;
    return this.direction * compareCanonical(priceA, priceB);
  }
}

/** One side's levels at a moment: prices worst first, their float keys, amounts (undefined = removed). */
interface SideView {
  readonly prices: readonly string[];
  readonly keys: Float64Array;
  readonly amounts: ReadonlyMap<string, string | undefined>;
}

function nextPowerOfTwo(value: number): number {
  let power = 1;
  while (power < value) power *= 2;
  return power;
}

/**
 * The full-depth level-2 book of one instrument, keyed by canonical price text.
 * Prices and amounts must be canonical decimal text (see `canonicalDecimal`); amount "0" removes a level.
 */
export class OrderBook {
  /** Version of the last applied snapshot or delta; the caller stamps deltas. */
  version = 0;
  /** Unix milliseconds of the book's last change. */
  updatedAt = 0;

  private readonly bids = new SortedBookSide(1);
  private readonly asks = new SortedBookSide(-1);
  private readonly trackChanges: boolean;
  private readonly changedBids = new Set<string>();
  private readonly changedAsks = new Set<string>();
  /** The book's levels before the first snapshot since the last take, when one came. */
  private before?: { readonly bids: SideView; readonly asks: SideView };

  constructor(options: OrderBookOptions = {}) {
    this.trackChanges = options.trackChanges ?? true;
  }

  /** A book holding the levels of a snapshot, for comparisons. */
  static fromLevels(updates: readonly LevelUpdate[], version: number, time: number): OrderBook {
    const book = new OrderBook({ trackChanges: false });
    book.replace(updates, version, time);
    return book;
  }

  /** Replaces the whole book with a snapshot. Levels with amount "0" are skipped; a repeated price keeps the last. */
  replace(updates: readonly LevelUpdate[], version: number, time: number): void {
    const bids = new Map<string, string>();
    const asks = new Map<string, string>();
    for (const update of updates) {
      const levels = update.side === 'bid' ? bids : asks;
      if (update.amount === '0') levels.delete(update.price);
      else levels.set(update.price, update.amount);
    }
    if (this.trackChanges) {
      if (this.before === undefined) {
        // The levels this snapshot replaces, for takeChanges to report with the new ones.
        this.before = { bids: this.bids.view(), asks: this.asks.view() };
      } else {
        // A second snapshot before the take: the levels of the first one changed as well.
        for (const price of this.bids.allPrices()) this.changedBids.add(price);
        for (const price of this.asks.allPrices()) this.changedAsks.add(price);
      }
    }
    this.bids.load(bids);
    this.asks.load(asks);
    this.version = version;
    this.updatedAt = time;
  }

  /** Sets the absolute amount of one level, or removes it when the amount is "0". */
  apply(update: LevelUpdate): void {
    const side = update.side === 'bid' ? this.bids : this.asks;
    const changed = update.amount === '0' ? side.delete(update.price) : side.set(update.price, update.amount);
    if (changed && this.trackChanges) {
      (update.side === 'bid' ? this.changedBids : this.changedAsks).add(update.price);
    }
  }

  best(side: BookSide): PriceLevel | undefined {
    const levels = this.side(side);
    const price = levels.best();
    return price === undefined ? undefined : [price, levels.get(price) as string];
  }

  /** Best bid at or above best ask; a book with an empty side is never crossed. */
  isCrossed(): boolean {
    const bid = this.bids.best();
    const ask = this.asks.best();
    return bid !== undefined && ask !== undefined && compareCanonical(bid, ask) >= 0;
  }

  /** Best level first; `limit` levels at most (all when omitted). */
  levels(side: BookSide, limit?: number): PriceLevel[] {
    const levels = this.side(side);
    return levels.levels(limit === undefined ? levels.size : Math.max(0, limit));
  }

  size(side: BookSide): number {
    return this.side(side).size;
  }

  amount(side: BookSide, price: string): string | undefined {
    return this.side(side).get(price);
  }

  /** The first level found where this book differs from `expected`, or undefined when both hold the same levels. */
  firstDifference(expected: OrderBook): LevelDifference | undefined {
    for (const side of ['bid', 'ask'] as const) {
      const actual = this.side(side);
      const wanted = expected.side(side);
      for (const price of wanted.allPrices()) {
        const amount = actual.get(price);
        if (amount !== wanted.get(price)) return { side, price, amount, expected: wanted.get(price) };
      }
      if (actual.size !== wanted.size) {
        for (const price of actual.allPrices()) {
          if (wanted.get(price) === undefined)
            return { side, price, amount: actual.get(price), expected: undefined };
        }
      }
    }
    return undefined;
  }

  /** The levels changed since the last take, with their final amounts ("0" = removed), best first; then forgets them. */
  takeChanges(): BookChanges {
    const before = this.before;
    const changes: BookChanges = {
      replaced: before !== undefined,
      // After a snapshot, every level of the book before it and of the book now, with any other changed price.
      bids: before
        ? this.bids.changesSince(before.bids, this.changedBids)
        : this.changedLevels(this.bids, this.changedBids),
      asks: before
        ? this.asks.changesSince(before.asks, this.changedAsks)
        : this.changedLevels(this.asks, this.changedAsks),
    };
    this.changedBids.clear();
    this.changedAsks.clear();
    this.before = undefined;
    return changes;
  }

  private changedLevels(levels: SortedBookSide, changed: Set<string>): PriceLevel[] {
    return levels.sortBestFirst([...changed]).map((price) => [price, levels.get(price) ?? '0']);
  }

  private side(side: BookSide): SortedBookSide {
    return side === 'bid' ? this.bids : this.asks;
  }
}
