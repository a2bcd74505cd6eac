import { compareCanonical } from './decimal';
import { ExactSum } from './exact-sum';
import { EMPTY_STATS, MarketStats } from './market-stats';
import { ownText } from './own-text';
import { Trade } from './trade';
import { TradeColumns } from './trade-columns';

export const DAY_MS = 86_400_000;

/** Exact order of two non-negative integer texts (trade ids), without going through Number. */
export function compareIntegerText(a: string, b: string): number {
  if (a === b) return 0;
  const x = stripLeadingZeros(a);
  const y = stripLeadingZeros(b);
  if (x.length !== y.length) return x.length < y.length ? -1 : 1;
  return x === y ? 0 : x < y ? -1 : 1;
}

function stripLeadingZeros(text: string): string {
  if (text.length < 2 || text.charCodeAt(0) !== 48 /* 0 */) return text;
  const stripped = text.replace(/^0+/, '');
  return stripped === '' ? '0' : stripped;
}

/** Window order: by time, then by numeric trade id. */
export function compareTrades(a: Trade, b: Trade): number {
  return a.time - b.time || compareIntegerText(a.id, b.id);
}

/**
 * The running maximum (or minimum) price of a sliding window whose items enter at the back and leave at the
 * front: a monotonic queue of the items' indices, amortized O(1) per trade. Items entering out of order
 * require a rebuild.
 */
class PriceExtreme {
  private items: number[] = [];
  private head = 0;

  /** `sign` 1 tracks the highest price, -1 the lowest; `priceOf` gives the price of an item's index. */
  constructor(
    private readonly sign: 1 | -1,
    private readonly priceOf: (index: number) => string,
  ) {}

  get front(): number | undefined {
    return this.items[this.head];
  }

  push(index: number, price: string): void {
    // A newer trade at least as extreme makes the older ones irrelevant: they leave the window first.
    while (
      this.items.length > this.head &&
      this.sign * compareCanonical(this.priceOf(this.items[this.items.length - 1]), price) <= 0
    ) {
      this.items.pop();
    }
    this.items.push(index);
  }

  /** Called for every trade leaving the window, oldest first. */
  leave(index: number): void {
    if (this.items[this.head] !== index) return;
    this.head++;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
  }

  rebuild(from: number, to: number): void {
    this.items = [];
    this.head = 0;
    for (let index = from; index < to; index++) this.push(index, this.priceOf(index));
  }
}

/**
 * The trades of one instrument in the last 24 hours, `now - 24h < time <= now`, de-duplicated by trade id and
 * ordered by time then numeric id. Keeps running sums and running extremes so that statistics cost amortized
 * O(1) when trades arrive in order and leave by expiry; out-of-order inserts (backfill) are merged in.
 *
 * The trades are held in columns (`TradeColumns`), not as objects, and a trade id is looked up by a binary
 * search while the ids rise with the window order, as an exchange's do; a set of the ids is kept only while
 * they do not.
 *
 * Trades stamped later than `now` (clock skew between the exchange and this host) are kept: they enter the
 * window as time passes. `stats(now)` leaves them out, on a slower path.
 */
export class TradeWindow {
  private columns = new TradeColumns();
  /** How many trades ever left the columns' front: the index of a trade is this plus its position. */
  private dropped = 0;
  /** The ids held, while they do not rise with the window order (or one is not a plain integer). */
  private idSet: Set<string> | undefined;
  private baseVolume = new ExactSum();
  private quoteVolume = new ExactSum();
  private readonly priceOf = (index: number): string => this.columns.priceAt(index - this.dropped);
  private readonly highest = new PriceExtreme(1, this.priceOf);
  private readonly lowest = new PriceExtreme(-1, this.priceOf);
  private extremesStale = false;
  /** The instrument's name as the window's trades share it. */
  private instrument = '';

  constructor(readonly windowMs: number = DAY_MS) {}

  get size(): number {
    return this.columns.length;
  }

  has(id: string): boolean {
    if (this.idSet) return this.idSet.has(id);
    const value = plainInteger(id);
    if (value === undefined) return false;
    let low = 0;
    let high = this.columns.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const held = this.columns.idNumberAt(middle);
      if (held === value) return true;
      if (held < value) low = middle + 1;
      else high = middle - 1;
    }
    return false;
  }

  /**
   * Adds the trades not seen before and not already out of the window at `now`; the first of several trades
   * with one id wins. Returns the trades added, in window order.
   */
  add(trades: readonly Trade[], now: number): Trade[] {
    const cutoff = now - this.windowMs;
    const added: Trade[] = [];
    const batch = new Set<string>();
    for (const trade of trades) {
      if (trade.time <= cutoff || batch.has(trade.id) || this.has(trade.id)) continue;
      if (trade.instrument !== this.instrument) this.instrument = ownText(trade.instrument);
      const owned = ownTrade(trade, this.instrument);
      batch.add(owned.id);
      added.push(owned);
    }
    if (added.length === 0) return added;
    if (!isSorted(added)) added.sort(compareTrades);

    const held = this.columns.length;
    if (held === 0 || compareTrades(this.columns.at(held - 1), added[0]) < 0) {
      for (const trade of added) {
        this.noteId(trade.id, this.columns.length);
        this.columns.push(trade);
        if (!this.extremesStale) {
          const index = this.dropped + this.columns.length - 1;
          this.highest.push(index, trade.price);
          this.lowest.push(index, trade.price);
        }
      }
    } else {
      const merged = merge(this.columns.toArray(), 0, added);
      this.columns.clear();
      this.idSet = undefined;
      for (const trade of merged) {
        this.noteId(trade.id, this.columns.length);
        this.columns.push(trade);
      }
      this.extremesStale = true;
    }
    for (const trade of added) {
      this.baseVolume.add(trade.amount);
      this.quoteVolume.addProduct(trade.price, trade.amount);
    }
    return added;
  }

  /** Drops the trades that left the window at `now`; returns the cut-off: every trade with `time <= cut-off` is gone. */
  expire(now: number): number {
    const cutoff = now - this.windowMs;
    let leaving = 0;
    while (leaving < this.columns.length && this.columns.timeAt(leaving) <= cutoff) {
      const price = this.columns.priceAt(leaving);
      const amount = this.columns.amountAt(leaving);
      this.idSet?.delete(this.columns.idAt(leaving));
      this.baseVolume.subtract(amount);
      this.quoteVolume.subtractProduct(price, amount);
      if (!this.extremesStale) {
        this.highest.leave(this.dropped + leaving);
        this.lowest.leave(this.dropped + leaving);
      }
      leaving++;
    }
    this.columns.dropOldest(leaving);
    this.dropped += leaving;
    if (this.columns.length === 0) {
      this.idSet = undefined;
      // Exact sums return to zero; resetting also drops the scale the trades that left brought.
      this.baseVolume = new ExactSum();
      this.quoteVolume = new ExactSum();
    }
    return cutoff;
  }

  /** Exact 24-hour statistics at `now`; first drops what left the window, as `expire(now)` does. */
  stats(now: number): MarketStats {
    this.expire(now);
    if (this.size === 0) return EMPTY_STATS;
    const newest = this.columns.length - 1;
    if (this.columns.timeAt(newest) > now)
      return statsOf(this.columns.toArray().filter((trade) => trade.time <= now));
    if (this.extremesStale) {
      this.highest.rebuild(this.dropped, this.dropped + this.columns.length);
      this.lowest.rebuild(this.dropped, this.dropped + this.columns.length);
      this.extremesStale = false;
    }
    return {
      last: this.columns.priceAt(newest),
      open: this.columns.priceAt(0),
      high: this.priceOf(this.highest.front as number),
      low: this.priceOf(this.lowest.front as number),
      baseVolume: this.baseVolume.toText(),
      quoteVolume: this.quoteVolume.toText(),
      tradeCount: this.size,
      source: 'trades',
    };
  }

  /** When the oldest trade leaves the window, or undefined without trades. */
  nextExpiry(): number | undefined {
    return this.size === 0 ? undefined : this.columns.timeAt(0) + this.windowMs;
  }

  /** The trades held, oldest first. */
  trades(): Trade[] {
    return this.columns.toArray();
  }

  /** The newest `count` trades held, oldest first. */
  newest(count: number): Trade[] {
    return this.columns.toArray(Math.max(0, this.columns.length - count));
  }

  /** The trades held with `from <= time < to`, oldest first. */
  tradesBetween(from: number, to: number): Trade[] {
    const trades: Trade[] = [];
    for (let at = this.firstAtOrAfter(from); at < this.columns.length && this.columns.timeAt(at) < to; at++) {
      trades.push(this.columns.at(at));
    }
    return trades;
  }

  /** The position of the oldest trade held with `time >= from` (the count held when there is none). */
  private firstAtOrAfter(from: number): number {
    let low = 0;
    let high = this.columns.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.columns.timeAt(middle) < from) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /**
   * Before the trade with `id` enters at `position`: keeps the binary search valid, or falls back to a
   * set of the ids once an id does not rise above the one before it.
   */
  private noteId(id: string, position: number): void {
    if (this.idSet) {
      this.idSet.add(id);
      return;
    }
    const value = plainInteger(id);
    if (value !== undefined && (position === 0 || this.columns.idNumberAt(position - 1) < value)) return;
    this.idSet = new Set<string>();
    for (let held = 0; held < position; held++) this.idSet.add(this.columns.idAt(held));
    this.idSet.add(id);
  }
}

/** The id as a number when it is a plain integer text that a number gives back exactly. */
function plainInteger(id: string): number | undefined {
  if (id.length > 15 || !/^\d+$/.test(id)) return undefined;
  const value = Number(id);
  return String(value) === id ? value : undefined;
}

function isSorted(trades: readonly Trade[]): boolean {
  for (let i = 1; i < trades.length; i++) if (compareTrades(trades[i - 1], trades[i]) > 0) return false;
  return true;
}

/** Merges sorted `added` into the sorted `entries` from `start` on. */
function merge(entries: readonly Trade[], start: number, added: readonly Trade[]): Trade[] {
  const merged: Trade[] = [];
  let i = start;
  let j = 0;
  while (i < entries.length && j < added.length) {
    merged.push(compareTrades(entries[i], added[j]) <= 0 ? entries[i++] : added[j++]);
  }
  while (i < entries.length) merged.push(entries[i++]);
  while (j < added.length) merged.push(added[j++]);
  return merged;
}

/** Statistics computed from scratch over trades in window order. */
function statsOf(trades: readonly Trade[]): MarketStats {
  if (trades.length === 0) return EMPTY_STATS;
  let high = trades[0].price;
  let low = trades[0].price;
  const base = new ExactSum();
  const quote = new ExactSum();
  for (const trade of trades) {
    if (compareCanonical(trade.price, high) > 0) high = trade.price;
    if (compareCanonical(trade.price, low) < 0) low = trade.price;
    base.add(trade.amount);
    quote.addProduct(trade.price, trade.amount);
  }
  return {
    last: trades[trades.length - 1].price,
    open: trades[0].price,
    high,
    low,
    baseVolume: base.toText(),
    quoteVolume: quote.toText(),
    tradeCount: trades.length,
    source: 'trades',
  };
}

/**
 * The trade with texts of its own, as an object literal of one fixed shape: a day in the window must
 * not keep the frame or page it came in, nor any field the decoder added. `instrument` is the text
 * the window already holds for it, so that a day of trades shares one copy.
 */
function ownTrade(trade: Trade, instrument: string): Trade {
  return {
    id: ownText(trade.id),
    instrument,
    price: ownText(trade.price),
    amount: ownText(trade.amount),
    side: trade.side,
    time: trade.time,
  };
}
