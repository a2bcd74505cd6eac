import { Candle } from '../candle-stats';
import { canonicalDecimal, compareCanonical, DecimalValue, toDecimal } from '../decimal';
import { barEnd, barStart, ChartResolution } from './chart-resolution';

/** What a bar needs of a trade: id (integer text), time (Unix ms), price and base amount (canonical text). */
export interface BarTrade {
  readonly id: string;
  readonly time: number;
  readonly price: string;
  readonly amount: string;
}

/** What applying trades or the clock did to the bars of one resolution. */
export interface BarChanges {
  /** Bars whose bucket is over, oldest first: each sent once as final. */
  readonly closed: readonly Candle[];
  /** Closed bars a late trade changed, as they are now. */
  readonly corrected: readonly Candle[];
  /** The open bar, when it changed. */
  readonly open?: Candle;
}

interface Bucket {
  readonly start: number;
  readonly end: number;
  open: BarTrade;
  close: BarTrade;
  high: string;
  low: string;
  volume: DecimalValue;
  /** Every trade in the bar, so that a trade seen twice (a read and a notice) counts once. */
  readonly ids: Set<string>;
}

/** How many closed bars are kept for late trades to correct. */
const KEPT_CLOSED = 4;

/**
 * The live bars of one market at one resolution, built from trades in any order: the bar of the
 * newest bucket with a trade is open until its bucket is over (by the clock or by a newer trade),
 * then closed; a late trade in a closed bar still held corrects it. Open is the oldest trade (by
 * time, then id), close the newest, volume the exact sum of the amounts.
 */
export class LiveBars {
  /** Oldest first; the last one is open unless `closedThrough` covers it. */
  private readonly buckets: Bucket[] = [];
  /** Bars starting before this are closed. */
  private closedThrough = Number.NEGATIVE_INFINITY;

  constructor(readonly resolution: ChartResolution) {}

  /** The open bar, if its bucket has a trade. */
  get open(): Candle | undefined {
    const last = this.buckets.at(-1);
    return last && last.start >= this.closedThrough ? candleOf(last) : undefined;
  }

  /**
   * Starts the open bar from `earlier`, the same bucket's bar of the trades before the first trade
   * to be applied (history the trades at hand do not reach). Only before any trade.
   */
  seed(earlier: Candle): void {
    if (this.buckets.length > 0) throw new Error('a live bar is seeded before its trades');
    const first = { id: '', time: earlier.start, amount: '0' };
    this.buckets.push({
      start: earlier.start,
      end: earlier.end,
      open: { ...first, price: earlier.open },
      close: { ...first, price: earlier.close },
      high: earlier.high,
      low: earlier.low,
      volume: toDecimal(earlier.volume),
      ids: new Set(),
    });
    this.closedThrough = earlier.start;
  }

  /**
   * Applies `trades` (any order) at `now`; a trade older than every bar held, or held already, is
   * ignored.
   */
  apply(trades: readonly BarTrade[], now: number): BarChanges {
    const closed: Candle[] = [];
    const corrected = new Map<number, Bucket>();
    let openChanged = false;
    for (const trade of trades) {
      const start = barStart(trade.time, this.resolution);
      const newest = this.buckets.at(-1);
      if (!newest || start > newest.start) {
        if (newest && newest.start >= this.closedThrough) closed.push(candleOf(newest));
        this.closedThrough = Math.max(this.closedThrough, start);
        this.buckets.push(newBucket(start, barEnd(start, this.resolution), trade));
        if (this.buckets.length > KEPT_CLOSED + 1) this.buckets.shift();
        openChanged = true;
        continue;
      }
      let bucket = this.buckets.find((each) => each.start === start);
      if (!bucket) {
        // A late trade in a bucket without a bar yet: a new closed bar, if newer than the oldest held.
        const at = this.buckets.findIndex((each) => each.start > start);
        if (at <= 0) continue;
        bucket = newBucket(start, barEnd(start, this.resolution), trade);
        this.buckets.splice(at, 0, bucket);
        corrected.set(start, bucket);
        continue;
      }
      if (!addTrade(bucket, trade)) continue;
      if (bucket.start >= this.closedThrough) openChanged = true;
      else corrected.set(bucket.start, bucket);
    }
    const timed = this.close(now);
    return {
      closed: [...closed, ...timed.closed],
      corrected: [...corrected.values()].map(candleOf),
      open: openChanged && !timed.closed.length ? this.open : undefined,
    };
  }

  /** Closes the open bar once its bucket is over at `now`. */
  close(now: number): BarChanges {
    const last = this.buckets.at(-1);
    if (!last || last.start < this.closedThrough || now < last.end) return { closed: [], corrected: [] };
    this.closedThrough = last.end;
    return { closed: [candleOf(last)], corrected: [] };
  }

  /** When the open bar's bucket ends (Unix ms), if a bar is open. */
  get openEnd(): number | undefined {
    const last = this.buckets.at(-1);
    return last && last.start >= this.closedThrough ? last.end : undefined;
  }
}

function newBucket(start: number, end: number, trade: BarTrade): Bucket {
  return {
    start,
    end,
    open: trade,
    close: trade,
    high: trade.price,
    low: trade.price,
    volume: toDecimal(trade.amount),
    ids: new Set([trade.id]),
  };
}

/** Adds a trade to its bucket; false when the bucket already holds it. */
function addTrade(bucket: Bucket, trade: BarTrade): boolean {
  if (bucket.ids.has(trade.id)) return false;
  bucket.ids.add(trade.id);
  if (older(trade, bucket.open)) bucket.open = trade;
  if (older(bucket.close, trade)) bucket.close = trade;
  if (compareCanonical(trade.price, bucket.high) > 0) bucket.high = trade.price;
  if (compareCanonical(trade.price, bucket.low) < 0) bucket.low = trade.price;
  bucket.volume = bucket.volume.plus(toDecimal(trade.amount));
  return true;
}

function older(a: BarTrade, b: BarTrade): boolean {
  return a.time < b.time || (a.time === b.time && compareCanonical(a.id, b.id) < 0);
}

function candleOf(bucket: Bucket): Candle {
  return {
    start: bucket.start,
    end: bucket.end,
    open: bucket.open.price,
    high: bucket.high,
    low: bucket.low,
    close: bucket.close.price,
    volume: canonicalDecimal(bucket.volume.toFixed()),
  };
}
