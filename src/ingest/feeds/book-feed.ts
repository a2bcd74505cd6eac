import { BookMessage } from '../../market/book-update';
import { MarketInfo } from '../../market/market-info';

export interface BookFeedListener {
  /** A snapshot or a delta of the instrument's book, in the order the feed delivered them. */
  onMessage(message: BookMessage): void;
  /** The feed lost the instrument (stream error, disconnect); it comes back by itself with a snapshot. */
  onInterrupted(reason: string): void;
  /** A message that could not be decoded and was skipped: the book may now be behind. */
  onMalformed(error: Error): void;
  /** The feed has just asked the exchange for the instrument (its snapshot is on the way), when it tells. */
  onOpened?(): void;
}

export interface BookFeedSubscription {
  /** Drops the instrument's stream and opens it again: the next message is a fresh snapshot. */
  restart(): void;
  close(): void;
}

/** A source of order books: the hub's `Book` stream or the gateway's Level 2 feed. */
export interface BookFeed {
  readonly name: 'hub' | 'gateway';
  open(market: MarketInfo, listener: BookFeedListener): BookFeedSubscription;
}

/** Injection token of the `BookFeed` that `BOOK_SOURCE` picks. */
export const BOOK_FEED = Symbol('BookFeed');
