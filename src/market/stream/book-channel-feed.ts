import { BookSide, LevelUpdate, PriceLevel } from '../book-update';
import { canonicalDecimal, compareCanonical } from '../decimal';
import { OrderBook } from '../order-book';
import { BookChannelUpdate, BOOK_REPLACED, BOOK_SUSPENDED, BookChannelEvent } from './book-channel-event';
import { BookSnapshotMessage } from './book-channel-message';
import { BookChannelSource } from './book-channel-source';
import { bookChecksum, CHECKSUM_DEPTH } from './book-checksum';
import { MarketScales, publishedLevel } from './published-level';

/** A whole book: its levels applied in order to an empty book (amount "0" removes, a later entry wins). */
export interface FullBook {
  readonly version: number;
  /** Unix milliseconds of the book's last change. */
  readonly time: number;
  readonly bids: readonly PriceLevel[];
  readonly asks: readonly PriceLevel[];
}

/** One flush of the gateway's book: the levels that changed, amount "0" for a removal. */
export interface BookFlush extends FullBook {
  /**
   * The version the flush starts from, when its publisher says. One after the feed's means changes were
   * lost; one before it still holds every level changed since, as levels carry absolute amounts.
   */
  readonly fromVersion?: number;
}

/**
 * The book of one market as an API process holds it, shared by every reader of the process: it follows
 * the gateway's book (canonical decimals) and turns each change into an event for the stream
 * connections' sequencers, with levels at the market's scales and the checksum of the book after it.
 * Its own book holds the levels as published, so that neither a snapshot nor a checksum writes a level
 * again: a market's published text is one per value, and padded to the scale it keeps
 * `compareCanonical`'s order; the listing endpoints get them back in canonical decimals (`levels`). It is live only from a full book on, and only until it is suspended or misses a flush: then
 * it waits for a full book again, since the changes it would follow from there could not be trusted.
 *
 * Deliver each event to every sequencer before the feed changes again: a sequencer reads the feed's
 * book when it owes a snapshot, and skips the events that snapshot already holds.
 */
export class BookChannelFeed implements BookChannelSource {
  private book = new OrderBook({ trackChanges: false });
  private isLive = false;
  private snapshotMessage?: BookSnapshotMessage;
  /** The checksum after the last update: the same while changes stay below the levels it covers. */
  private checksum?: number;

  constructor(
    readonly channel: string,
    private readonly scales: MarketScales,
  ) {}

  get live(): boolean {
    return this.isLive;
  }

  /** The version of the book held, live or not. */
  get version(): number {
    return this.book.version;
  }

  /** How many levels the book holds, both sides. */
  get levelCount(): number {
    return this.book.size('bid') + this.book.size('ask');
  }

  /** Unix milliseconds of the held book's last change. */
  get time(): number {
    return this.book.updatedAt;
  }

  /** The gateway's book from a snapshot, a store read, or a flush that says the book was replaced. */
  replace(full: FullBook): BookChannelEvent {
    const updates: LevelUpdate[] = [];
    for (const level of full.bids) updates.push(this.publishedUpdate('bid', level));
    for (const level of full.asks) updates.push(this.publishedUpdate('ask', level));
    this.book = OrderBook.fromLevels(updates, full.version, full.time);
    this.checksum = undefined;
    this.isLive = true;
    this.snapshotMessage = undefined;
    return BOOK_REPLACED;
  }

  /**
   * Applies a flush; undefined when nothing is to be sent: the feed is not live, the flush is one it
   * already holds (at or below its version), it changed no level, or `announce` is false (nobody
   * streams the book: no update is built). A flush that starts after the feed's version suspends the
   * feed.
   */
  apply(flush: BookFlush, announce = true): BookChannelEvent | undefined {
    if (!this.isLive || flush.version <= this.book.version) return undefined;
    if (flush.fromVersion !== undefined && flush.fromVersion > this.book.version) return this.suspend();
    const bids = this.publishedSide(flush.bids);
    const asks = this.publishedSide(flush.asks);
    const topChanged = announce && (this.reachesTop('bid', bids) || this.reachesTop('ask', asks));
    this.applySide('bid', bids);
    this.applySide('ask', asks);
    this.book.version = flush.version;
    this.book.updatedAt = flush.time;
    this.snapshotMessage = undefined;
    if (bids.length === 0 && asks.length === 0) return undefined;
    if (!announce) {
      // Unknown from here on: the next update that is built computes it again.
      this.checksum = undefined;
      return undefined;
    }
    if (topChanged || this.checksum === undefined)
      this.checksum = bookChecksum(
        this.published('bid', CHECKSUM_DEPTH),
        this.published('ask', CHECKSUM_DEPTH),
      );
    const { checksum } = this;
    return {
      kind: 'update',
      update: new BookChannelUpdate(this.channel, flush.version, bids, asks, checksum, flush.time),
    };
  }

  /** The gateway's book is no longer live; undefined when the feed was not live either. */
  suspend(): BookChannelEvent | undefined {
    if (!this.isLive) return undefined;
    this.isLive = false;
    this.snapshotMessage = undefined;
    return BOOK_SUSPENDED;
  }

  /** Built once per version, for every connection that needs it. */
  snapshot(): BookSnapshotMessage {
    if (!this.isLive) throw new Error(`${this.channel}: no snapshot while the book is not live`);
    if (this.snapshotMessage === undefined) {
      const bids = this.published('bid');
      const asks = this.published('ask');
      this.snapshotMessage = {
        type: 'snapshot',
        channel: this.channel,
        seq: this.book.version,
        bids,
        asks,
        checksum: bookChecksum(bids, asks),
        ts: this.book.updatedAt,
      };
    }
    return this.snapshotMessage;
  }

  /** Best first, as the stream writes them; every level when `limit` is left out. */
  published(side: BookSide, limit?: number): PriceLevel[] {
    return this.book.levels(side, limit);
  }

  /** Best first, in canonical decimals, as the listing endpoints serve them. */
  levels(side: BookSide): PriceLevel[] {
    const levels = this.book.levels(side);
    for (let i = 0; i < levels.length; i++) {
      const [price, amount] = levels[i];
      levels[i] = [canonicalDecimal(price), canonicalDecimal(amount)];
    }
    return levels;
  }

  /** Whether a level among `levels` is within the levels the checksum covers (before they apply). */
  private reachesTop(side: BookSide, levels: readonly PriceLevel[]): boolean {
    if (levels.length === 0) return false;
    const edge = this.book.priceAtDepth(side, CHECKSUM_DEPTH - 1);
    if (edge === undefined) return true;
    const better = side === 'bid' ? 1 : -1;
    return levels.some(([price]) => better * compareCanonical(price, edge) >= 0);
  }

  private publishedSide(levels: readonly PriceLevel[]): PriceLevel[] {
    const published = new Array<PriceLevel>(levels.length);
    for (let i = 0; i < levels.length; i++) published[i] = publishedLevel(levels[i], this.scales);
    return published;
  }

  private publishedUpdate(side: BookSide, level: PriceLevel): LevelUpdate {
    const [price, amount] = publishedLevel(level, this.scales);
    return { side, price, amount };
  }

  private applySide(side: BookSide, levels: readonly PriceLevel[]): void {
    for (const [price, amount] of levels) this.book.apply({ side, price, amount });
  }
}
