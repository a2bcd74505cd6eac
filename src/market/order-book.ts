import { BookSide, LevelUpdate, PriceLevel } from './book-update';
import { compareCanonical } from './decimal';
import { BookDirection, levelKey } from './level-order';
import { ownText } from './own-text';
import { keyCapacity, LoadedBook, LoadedSide, SnapshotLoad } from './snapshot-load';

/**
 * What the store needs to catch up with the book since the last `takeChanges()`; amount "0" = removed.
 * Without a snapshot in between: the levels that changed, each price once, in no particular order (a
 * store keeps levels by price; sorting them cost every flush). After a snapshot: every level of the
 * snapshot, best first, then every price changed since or dropped by it (the store may still hold
 * those), in no particular order, with its amount now. A price may then come
 * twice, and the later entry wins: applied in order, the entries give the book. Nothing compares the
 * books before and after the snapshot, and the snapshot's levels are built while it loads.
 */
export interface BookChanges {
  /** A snapshot replaced the book since the last take. */
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

/**
 * One side of the book, sorted worst to best, so that the busy region near the touch sits at the end of the
 * arrays. A Float64Array of keys makes the binary search that finds a level cheap; equal keys (prices a float
 * cannot tell apart, such as 18-decimal prices) fall back to the exact order of the canonical texts.
 *
 * A level's texts stay in their slot of `prices` and `amounts` for as long as it lives; the sorted order is
 * an Int32Array of slots beside the keys. An insert or a removal moves numbers only, a block move of typed
 * arrays, where shifting arrays of strings (with splice) writes every moved pointer through V8's write
 * barrier (BENCHMARKS.md, Profiles).
 *
 * A level is found by that search rather than through a Map keyed by price text: across hundreds of books a
 * Map's entries and the texts it compares are scattered over the heap, and each price read from a frame is a
 * new string whose hash must be computed first, where the keys of one side are a few kilobytes in a row.
 */
class SortedBookSide {
  private count = 0;
  private keys: Float64Array = new Float64Array(keyCapacity(0));
  /** The slot of each level, in the order of `keys`. */
  private order: Int32Array = new Int32Array(this.keys.length);
  /** By slot; a free slot holds ''. */
  private prices: string[] = [];
  private amounts: string[] = [];
  private freeSlots: number[] = [];

  constructor(private readonly direction: BookDirection) {}

  get size(): number {
    return this.count;
  }

  get(price: string): string | undefined {
    const index = this.lowerBound(levelKey(this.direction, price), price);
    return this.holdsAt(index, price) ? this.amountAt(index) : undefined;
  }

  /** The price of the level at `index`, counted from the worst. */
  priceAt(index: number): string {
    return this.prices[this.order[index]];
  }

  amountAt(index: number): string {
    return this.amounts[this.order[index]];
  }

  /** Live prices, worst first. */
  allPrices(): string[] {
    const prices = new Array<string>(this.count);
    for (let i = 0; i < this.count; i++) prices[i] = this.priceAt(i);
    return prices;
  }

  best(): PriceLevel | undefined {
    const last = this.count - 1;
    return last < 0 ? undefined : [this.priceAt(last), this.amountAt(last)];
  }

  bestPrice(): string | undefined {
    return this.count === 0 ? undefined : this.priceAt(this.count - 1);
  }

  /** Sets a level; returns the amount as now held, or undefined when the book did not change. */
  set(price: string, amount: string): string | undefined {
    const key = levelKey(this.direction, price);
    const index = this.lowerBound(key, price);
    if (this.holdsAt(index, price)) {
      const slot = this.order[index];
      if (this.amounts[slot] === amount) return undefined;
      return (this.amounts[slot] = ownText(amount));
    }
    const owned = ownText(amount);
    this.insert(index, key, ownText(price), owned);
    return owned;
  }

  /** Removes a level; returns whether it existed. */
  delete(price: string): boolean {
    const index = this.lowerBound(levelKey(this.direction, price), price);
    if (!this.holdsAt(index, price)) return false;
    const slot = this.order[index];
    this.prices[slot] = '';
    this.amounts[slot] = '';
    this.freeSlots.push(slot);
    this.keys.copyWithin(index, index + 1, this.count);
    this.order.copyWithin(index, index + 1, this.count);
    this.count--;
    return true;
  }

  /** Takes the levels of a snapshot load as its own. */
  adopt(loaded: LoadedSide): void {
    this.prices = loaded.prices;
    this.amounts = loaded.amounts;
    this.keys = loaded.keys;
    this.count = loaded.prices.length;
    this.order = new Int32Array(this.keys.length);
    for (let i = 0; i < this.count; i++) this.order[i] = i;
    this.freeSlots = [];
  }

  /** Best first. */
  levels(limit: number): PriceLevel[] {
    const count = Math.min(limit, this.count);
    const result = new Array<PriceLevel>(count);
    const last = this.count - 1;
    for (let i = 0; i < count; i++) result[i] = [this.priceAt(last - i), this.amountAt(last - i)];
    return result;
  }

  private insert(index: number, key: number, price: string, amount: string): void {
    if (this.count === this.keys.length) {
      const keys = new Float64Array(this.keys.length * 2);
      keys.set(this.keys);
      this.keys = keys;
      const order = new Int32Array(keys.length);
      order.set(this.order);
      this.order = order;
    }
    let slot = this.freeSlots.pop();
    if (slot === undefined) {
      slot = this.prices.length;
      this.prices.push(price);
      this.amounts.push(amount);
    } else {
      this.prices[slot] = price;
      this.amounts[slot] = amount;
    }
    this.keys.copyWithin(index + 1, index, this.count);
    this.order.copyWithin(index + 1, index, this.count);
    this.keys[index] = key;
    this.order[index] = slot;
    this.count++;
  }

  /** Whether the level at `index` (as lowerBound finds it) is at `price`. */
  private holdsAt(index: number, price: string): boolean {
    return index < this.count && this.priceAt(index) === price;
  }

  /** The first index whose level is not worse than (key, price). */
  private lowerBound(key: number, price: string): number {
    const keys = this.keys;
    let low = 0;
    let high = this.count;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const candidate = keys[middle];
      if (
        candidate < key ||
        (candidate === key && this.direction * compareCanonical(this.priceAt(middle), price) < 0)
      ) {
        low = middle + 1;
      } else {
        high = middle;
      }
    }
    return low;
  }
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
  /**
   * Prices changed since the last take, with their amounts now ("0" = removed): kept as they change,
   * so that a take reads no level back from the book.
   */
  private changedBids = new Map<string, string>();
  private changedAsks = new Map<string, string>();
  /** The levels of the snapshot installed since the last take, if one was, as the store takes them. */
  private replacedBy?: LoadedBook['written'];
  /** Counts the changes of the levels, so that a load can tell whether the book it read has changed. */
  private revision = 0;

  constructor(options: OrderBookOptions = {}) {
    this.trackChanges = options.trackChanges ?? true;
  }

  /** A book holding the levels of a snapshot, for comparisons. */
  static fromLevels(updates: readonly LevelUpdate[], version: number, time: number): OrderBook {
    const book = new OrderBook({ trackChanges: false });
    book.replace(updates, version, time);
    return book;
  }

  /** Replaces the whole book with a snapshot at once. Levels with amount "0" are skipped; a repeated price keeps the last. */
  replace(updates: readonly LevelUpdate[], version: number, time: number): void {
    this.install(this.startLoad(updates, Infinity), version, time);
  }

  /**
   * A snapshot load to run in slices of `sliceLevels` level operations (see `SnapshotLoad`). The book
   * must not change until the load is installed; until then it keeps its levels.
   */
  startLoad(updates: readonly LevelUpdate[], sliceLevels?: number): SnapshotLoad {
    const replaced = this.trackChanges
      ? {
          bids: { prices: this.bids.allPrices(), changed: this.changedBids },
          asks: { prices: this.asks.allPrices(), changed: this.changedAsks },
        }
      : undefined;
    return new SnapshotLoad(updates, replaced, sliceLevels, this.revision);
  }

  /** Replaces the book with a load of this book's, doing at once any slices it has left. */
  install(load: SnapshotLoad, version: number, time: number): void {
    if (load.bookRevision !== this.revision) throw new Error('the book changed while a snapshot was loading');
    const loaded = load.finish();
    this.bids.adopt(loaded.bids);
    this.asks.adopt(loaded.asks);
    if (this.trackChanges) {
      // The load left out of the new levels only what the store may hold and must drop.
      this.changedBids = loaded.dropped.bids;
      this.changedAsks = loaded.dropped.asks;
      this.replacedBy = loaded.written;
    }
    this.revision++;
    this.version = version;
    this.updatedAt = time;
  }

  /** Sets the absolute amount of one level, or removes it when the amount is "0". */
  apply(update: LevelUpdate): void {
    const side = update.side === 'bid' ? this.bids : this.asks;
    let amount: string | undefined;
    if (update.amount !== '0') amount = side.set(update.price, update.amount);
    else if (side.delete(update.price)) amount = '0';
    if (amount === undefined) return;
    this.revision++;
    if (this.trackChanges)
      (update.side === 'bid' ? this.changedBids : this.changedAsks).set(update.price, amount);
  }

  best(side: BookSide): PriceLevel | undefined {
    const levels = this.side(side);
    return levels.best();
  }

  /** Best bid at or above best ask; a book with an empty side is never crossed. */
  isCrossed(): boolean {
    const bid = this.bids.bestPrice();
    const ask = this.asks.bestPrice();
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

  /** The price of the level `depth` places from the best (0: the best); undefined past the side's end. */
  priceAtDepth(side: BookSide, depth: number): string | undefined {
    const levels = this.side(side);
    const index = levels.size - 1 - depth;
    return index < 0 || depth < 0 ? undefined : levels.priceAt(index);
  }

  amount(side: BookSide, price: string): string | undefined {
    return this.side(side).get(price);
  }

  /**
   * The first level found where this book differs from a snapshot's levels (amount "0" and repeated
   * prices read as in `replace`), or undefined when it holds exactly those. No book is built from the
   * snapshot: one that matches, sides sorted either way as exchanges send them, is walked along the
   * book's own sorted prices; only a mismatch or any other order gathers the levels into maps first.
   */
  firstDifferenceFrom(snapshot: readonly LevelUpdate[]): LevelDifference | undefined {
    return this.holdsSorted(snapshot) ? undefined : this.differenceFromAny(snapshot);
  }

  /** Whether each side of the snapshot is this book's side, level for level, worst or best first. */
  private holdsSorted(snapshot: readonly LevelUpdate[]): boolean {
    const walks = { bid: { next: 0, step: 0 }, ask: { next: 0, step: 0 } };
    for (const { side, price, amount } of snapshot) {
      const levels = this.side(side);
      const walk = walks[side];
      if (walk.step === 0) {
        if (levels.size === 0) return false;
        if (levels.priceAt(0) === price) walk.step = 1;
        else if (levels.priceAt(levels.size - 1) === price) [walk.next, walk.step] = [levels.size - 1, -1];
        else return false;
      }
      if (
        walk.next < 0 ||
        walk.next >= levels.size ||
        levels.priceAt(walk.next) !== price ||
        levels.amountAt(walk.next) !== amount
      )
        return false;
      walk.next += walk.step;
    }
    return (['bid', 'ask'] as const).every((side) => {
      const { next, step } = walks[side];
      return step === 0 ? this.side(side).size === 0 : next === (step === 1 ? this.side(side).size : -1);
    });
  }

  private differenceFromAny(snapshot: readonly LevelUpdate[]): LevelDifference | undefined {
    const expected = { bid: new Map<string, string>(), ask: new Map<string, string>() };
    for (const { side, price, amount } of snapshot) {
      if (amount === '0') expected[side].delete(price);
      else expected[side].set(price, amount);
    }
    for (const side of ['bid', 'ask'] as const) {
      const actual = this.side(side);
      const wanted = expected[side];
      for (const [price, amount] of wanted) {
        if (actual.get(price) !== amount) return { side, price, amount: actual.get(price), expected: amount };
      }
      if (actual.size !== wanted.size) {
        for (const price of actual.allPrices()) {
          if (!wanted.has(price)) return { side, price, amount: actual.get(price), expected: undefined };
        }
      }
    }
    return undefined;
  }

  /** What changed since the last take (see `BookChanges`); then forgets it. */
  takeChanges(): BookChanges {
    const replacedBy = this.replacedBy;
    const changes: BookChanges = {
      replaced: replacedBy !== undefined,
      bids: changedLevels(this.changedBids, replacedBy?.bids),
      asks: changedLevels(this.changedAsks, replacedBy?.asks),
    };
    this.changedBids.clear();
    this.changedAsks.clear();
    this.replacedBy = undefined;
    return changes;
  }

  private side(side: BookSide): SortedBookSide {
    return side === 'bid' ? this.bids : this.asks;
  }
}

/** The changed prices with their amounts now, in the order they first changed, after a snapshot's levels if any. */
function changedLevels(changed: ReadonlyMap<string, string>, snapshot?: PriceLevel[]): PriceLevel[] {
  const result = snapshot ?? [];
  for (const level of changed) result.push(level);
  return result;
}
