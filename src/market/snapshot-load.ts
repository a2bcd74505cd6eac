import { LevelUpdate, PriceLevel } from './book-update';
import { BookDirection, compareLevels, levelKey } from './level-order';
import { ownText } from './own-text';

/** One side as a load leaves it: prices worst first, their float keys (with room to grow), their amounts. */
export interface LoadedSide {
  readonly prices: string[];
  readonly keys: Float64Array;
  readonly amounts: string[];
}

/** One side of the book a snapshot replaces, as far as the store may still hold it. */
export interface ReplacedSide {
  /** Its live prices. */
  readonly prices: readonly string[];
  /** Prices changed since the store last took the changes, live or removed, with their amounts ("0" = removed). */
  readonly changed: ReadonlyMap<string, string>;
}

export interface LoadedBook {
  readonly bids: LoadedSide;
  readonly asks: LoadedSide;
  /**
   * Prices of the replaced book, or of its changes not yet taken, that the snapshot does not hold: the
   * store may still hold them and must drop them, each with amount "0". Empty when the book does not
   * track changes.
   */
  readonly dropped: { readonly bids: Map<string, string>; readonly asks: Map<string, string> };
  /**
   * Every level of the snapshot, best first, for the store's first write after it: built here, a slice
   * at a time, rather than in the write. Empty when the book does not track changes.
   */
  readonly written: { readonly bids: PriceLevel[]; readonly asks: PriceLevel[] };
}

/** Level operations (a level read, keyed, compared or moved) per slice by default: about a millisecond. */
export const DEFAULT_SLICE_LEVELS = 4096;
const MIN_KEY_CAPACITY = 256;

/** Room in a side's key array for `count` levels: a power of two, so that inserts rarely grow it. */
export function keyCapacity(count: number): number {
  let capacity = MIN_KEY_CAPACITY;
  while (capacity < count) capacity *= 2;
  return capacity;
}

/**
 * A snapshot turned into the two sides of a book, in slices of at most `sliceLevels` level operations,
 * so that a deep snapshot need not hold the event loop for the whole of it: each `step()` does one
 * slice and the caller decides when to do the next. The replaced book is only read, and must not
 * change until the load is installed; nothing of the load is visible until then.
 *
 * The work, in order: the updates gathered into one map per side (amount "0" removes a level, a
 * repeated price keeps the last); each side's prices keyed and its order checked (snapshots arrive
 * sorted one way or the other, so a side is at most reversed; any other order is merge-sorted);
 * then, when the book tracks changes, the replaced prices the snapshot drops, and the levels as the
 * store's first write after the snapshot takes them.
 */
export class SnapshotLoad {
  private readonly work: Generator<void, LoadedBook>;
  private spent = 0;
  private result?: LoadedBook;

  constructor(
    private readonly updates: readonly LevelUpdate[],
    private readonly replaced: { readonly bids: ReplacedSide; readonly asks: ReplacedSide } | undefined,
    private readonly sliceLevels: number = DEFAULT_SLICE_LEVELS,
    /** The replaced book's revision when the load started: the book installs the load only at that revision. */
    readonly bookRevision: number = 0,
  ) {
    if (!(sliceLevels >= 1)) throw new Error(`a slice must hold at least one level, not ${sliceLevels}`);
    this.work = this.run();
  }

  /** Does the next slice; the loaded book once the last slice is done. */
  step(): LoadedBook | undefined {
    if (this.result === undefined) {
      const next = this.work.next();
      if (next.done) this.result = next.value;
    }
    return this.result;
  }

  /** Does every slice left at once. */
  finish(): LoadedBook {
    let loaded = this.step();
    while (loaded === undefined) loaded = this.step();
    return loaded;
  }

  /** Counts a level operation about to be done; true when the slice is full and the work must pause first. */
  private full(): boolean {
    if (this.spent < this.sliceLevels) {
      this.spent++;
      return false;
    }
    this.spent = 1; // the operation opens the next slice
    return true;
  }

  private *run(): Generator<void, LoadedBook> {
    const bidLevels = new Map<string, string>();
    const askLevels = new Map<string, string>();
    for (const update of this.updates) {
      if (this.full()) yield;
      const levels = update.side === 'bid' ? bidLevels : askLevels;
      if (update.amount === '0') levels.delete(update.price);
      else levels.set(ownText(update.price), ownText(update.amount));
    }
    const bids = yield* this.side(1, bidLevels);
    const asks = yield* this.side(-1, askLevels);
    const dropped = {
      bids: yield* this.dropped(this.replaced?.bids, bidLevels),
      asks: yield* this.dropped(this.replaced?.asks, askLevels),
    };
    const written = {
      bids: yield* this.written(bids),
      asks: yield* this.written(asks),
    };
    return { bids, asks, dropped, written };
  }

  private *side(direction: BookDirection, levels: Map<string, string>): Generator<void, LoadedSide> {
    const count = levels.size;
    const side: LoadedSide = {
      prices: new Array<string>(count),
      keys: new Float64Array(keyCapacity(count)),
      amounts: new Array<string>(count),
    };
    const { prices, keys, amounts } = side;
    let ascending = true;
    let descending = true;
    let index = 0;
    for (const price of levels.keys()) {
      if (this.full()) yield;
      prices[index] = price;
      amounts[index] = levels.get(price) as string;
      keys[index] = levelKey(direction, price);
      if (index > 0) {
        if (compareLevels(direction, keys[index - 1], prices[index - 1], keys[index], price) > 0)
          ascending = false;
        else descending = false;
      }
      index++;
    }
    if (ascending) return side;
    if (descending) {
      yield* this.reverse(side, count);
      return side;
    }
    return yield* this.sort(direction, side, count);
  }

  private *reverse({ prices, keys, amounts }: LoadedSide, count: number): Generator<void, void> {
    for (let low = 0, high = count - 1; low < high; low++, high--) {
      if (this.full()) yield;
      const price = prices[low];
      prices[low] = prices[high];
      prices[high] = price;
      const amount = amounts[low];
      amounts[low] = amounts[high];
      amounts[high] = amount;
      const key = keys[low];
      keys[low] = keys[high];
      keys[high] = key;
    }
  }

  /** Bottom-up merge sort of the positions, one level operation per position placed, then the levels moved into order. */
  private *sort(
    direction: BookDirection,
    { prices, keys, amounts }: LoadedSide,
    count: number,
  ): Generator<void, LoadedSide> {
    let from = new Uint32Array(count);
    let to = new Uint32Array(count);
    for (let i = 0; i < count; i++) from[i] = i;
    for (let width = 1; width < count; width *= 2) {
      for (let start = 0; start < count; start += 2 * width) {
        const middle = Math.min(start + width, count);
        const end = Math.min(start + 2 * width, count);
        let left = start;
        let right = middle;
        for (let out = start; out < end; out++) {
          if (this.full()) yield;
          const takeLeft =
            right >= end ||
            (left < middle &&
              compareLevels(
                direction,
                keys[from[left]],
                prices[from[left]],
                keys[from[right]],
                prices[from[right]],
              ) <= 0);
          to[out] = takeLeft ? from[left++] : from[right++];
        }
      }
      [from, to] = [to, from];
    }
    const sorted: LoadedSide = {
      prices: new Array<string>(count),
      keys: new Float64Array(keys.length),
      amounts: new Array<string>(count),
    };
    for (let i = 0; i < count; i++) {
      if (this.full()) yield;
      sorted.prices[i] = prices[from[i]];
      sorted.keys[i] = keys[from[i]];
      sorted.amounts[i] = amounts[from[i]];
    }
    return sorted;
  }

  private *written(side: LoadedSide): Generator<void, PriceLevel[]> {
    if (this.replaced === undefined) return [];
    const { prices, amounts } = side;
    const levels = new Array<PriceLevel>(prices.length);
    for (let best = prices.length - 1, i = 0; best >= 0; best--, i++) {
      if (this.full()) yield;
      levels[i] = [prices[best], amounts[best]];
    }
    return levels;
  }

  private *dropped(
    replaced: ReplacedSide | undefined,
    levels: ReadonlyMap<string, string>,
  ): Generator<void, Map<string, string>> {
    const dropped = new Map<string, string>();
    if (replaced === undefined) return dropped;
    for (const price of replaced.prices) {
      if (this.full()) yield;
      if (levels.get(price) === undefined) dropped.set(price, '0');
    }
    for (const price of replaced.changed.keys()) {
      if (this.full()) yield;
      if (levels.get(price) === undefined) dropped.set(price, '0');
    }
    return dropped;
  }
}
