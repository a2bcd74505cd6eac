import { compareCanonical } from './decimal';
import { ExactSum } from './exact-sum';
import { EMPTY_STATS, MarketStats } from './market-stats';
import { ownText } from './own-text';
import { Trade } from './trade';

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
 * front: a monotonic queue, amortized O(1) per trade. Items entering out of order require a rebuild.
 */
class PriceExtreme {
  private items: Trade[] = [];
  private head = 0;

  /** `sign` 1 tracks the highest price, -1 the lowest. */
  constructor(private readonly sign: 1 | -1) {}

  get front(): Trade | undefined {
    return this.items[this.head];
  }

  push(trade: Trade): void {
    // A newer trade at least as extreme makes the older ones irrelevant: they leave the window first.
    while (
      this.items.length > this.head &&
      this.sign * compareCanonical(this.items[this.items.length - 1].price, trade.price) <= 0
    ) {
      this.items.pop();
    }
    this.items.push(trade);
  }

  /** Called for every trade leaving the window, oldest first. */
  leave(trade: Trade): void {
    if (this.items[this.head] !== trade) return;
    this.head++;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
  }

  rebuild(trades: Iterable<Trade>): void {
    this.items = [];
    this.head = 0;
    for (const trade of trades) this.push(trade);
  }
}

/**
 * The trades of one instrument in the last 24 hours, `now - 24h < time <= now`, de-duplicated by trade id and
 * ordered by time then numeric id. Keeps running sums and running extremes so that statistics cost amortized
 * O(1) when trades arrive in order and leave by expiry; out-of-order inserts (backfill) are merged in.
 *
 * Trades stamped later than `now` (clock skew between the exchange and this host) are kept: they enter the
 * window as time passes. `stats(now)` leaves them out, on a slower path.
 */
export class TradeWindow {
  private entries: Trade[] = [];
  private head = 0;
  private readonly ids = new Set<string>();
  private baseVolume = new ExactSum();
  private quoteVolume = new ExactSum();
  private readonly highest = new PriceExtreme(1);
  private readonly lowest = new PriceExtreme(-1);
  private extremesStale = false;
  /** The instrument's name as the window's trades share it. */
  private instrument = '';

  constructor(readonly windowMs: number = DAY_MS) {}

  get size(): number {
    return this.entries.length - this.head;
  }

  has(id: string): boolean {
    return this.ids.has(id);
  }

  /**
   * Adds the trades not seen before and not already out of the window at `now`; the first of several trades
   * with one id wins. Returns the trades added, in window order.
   */
  add(trades: readonly Trade[], now: number): Trade[] {
    const cutoff = now - this.windowMs;
    const added: Trade[] = [];
    for (const trade of trades) {
      if (trade.time <= cutoff || this.ids.has(trade.id)) continue;
      if (trade.instrument !== this.instrument) this.instrument = ownText(trade.instrument);
      const owned = ownTrade(trade, this.instrument);
      this.ids.add(owned.id);
      added.push(owned);
    }
    if (added.length === 0) return added;
    if (!isSorted(added)) added.sort(compareTrades);

    const newest = this.entries.length > this.head ? this.entries[this.entries.length - 1] : undefined;
    if (newest === undefined || compareTrades(newest, added[0]) < 0) {
      for (const trade of added) {
        this.entries.push(trade);
        if (!this.extremesStale) {
          this.highest.push(trade);
          this.lowest.push(trade);
        }
      }
    } else {
      this.entries = merge(this.entries, this.head, added);
      this.head = 0;
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
    while (this.head < this.entries.length && this.entries[this.head].time <= cutoff) {
      const trade = this.entries[this.head++];
      this.ids.delete(trade.id);
      this.baseVolume.subtract(trade.amount);
      this.quoteVolume.subtractProduct(trade.price, trade.amount);
      if (!this.extremesStale) {
        this.highest.leave(trade);
        this.lowest.leave(trade);
      }
    }
    if (this.head === this.entries.length) {
      this.entries = [];
      this.head = 0;
      // Exact sums return to zero; resetting also drops the scale the trades that left brought.
      this.baseVolume = new ExactSum();
      this.quoteVolume = new ExactSum();
    } else if (this.head > 1024 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
    return cutoff;
  }

  /** Exact 24-hour statistics at `now`; first drops what left the window, as `expire(now)` does. */
  stats(now: number): MarketStats {
    this.expire(now);
    if (this.size === 0) return EMPTY_STATS;
    const newest = this.entries[this.entries.length - 1];
    if (newest.time > now) return statsOf(this.entries.slice(this.head).filter((trade) => trade.time <= now));
    if (this.extremesStale) {
      const inWindow = this.entries.slice(this.head);
      this.highest.rebuild(inWindow);
      this.lowest.rebuild(inWindow);
      this.extremesStale = false;
    }
    return {
      last: newest.price,
      open: this.entries[this.head].price,
      high: (this.highest.front as Trade).price,
      low: (this.lowest.front as Trade).price,
      baseVolume: this.baseVolume.toText(),
      quoteVolume: this.quoteVolume.toText(),
      tradeCount: this.size,
      source: 'trades',
    };
  }

  /** When the oldest trade leaves the window, or undefined without trades. */
  nextExpiry(): number | undefined {
    return this.size === 0 ? undefined : this.entries[this.head].time + this.windowMs;
  }

  /** The time of the newest trade held, or undefined without trades. */
  newestTime(): number | undefined {
    return this.size === 0 ? undefined : this.entries[this.entries.length - 1].time;
  }

  /** The trades held, oldest first. */
  trades(): Trade[] {
    return this.entries.slice(this.head);
  }
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
