import { PriceLevel } from '../book-update';
import { BookUpdateMessage } from './book-channel-message';

/**
 * The changes of one flush as the stream writes them, shared by every connection of the channel: the
 * messages differ only in `prevSeq`, which is the same for all connections that are keeping up.
 */
export class BookChannelUpdate {
  private last?: BookUpdateMessage;

  constructor(
    readonly channel: string,
    readonly seq: number,
    readonly bids: readonly PriceLevel[],
    readonly asks: readonly PriceLevel[],
    readonly checksum: number,
    readonly ts: number,
  ) {}

  /** The message after one whose `seq` was `prevSeq`; asked twice in a row alike, the same object. */
  message(prevSeq: number): BookUpdateMessage {
    if (this.last?.prevSeq !== prevSeq) {
      const { channel, seq, bids, asks, checksum, ts } = this;
      this.last = { type: 'update', channel, seq, prevSeq, bids, asks, checksum, ts };
    }
    return this.last;
  }
}

/** What a book channel's feed tells every connection that follows it, in the order it happens. */
export type BookChannelEvent =
  | { readonly kind: 'update'; readonly update: BookChannelUpdate }
  /** A new full book: every connection needs a snapshot. */
  | { readonly kind: 'replaced' }
  /** The book is not live: nothing more until it is replaced. */
  | { readonly kind: 'suspended' };

export const BOOK_REPLACED: BookChannelEvent = { kind: 'replaced' };
export const BOOK_SUSPENDED: BookChannelEvent = { kind: 'suspended' };
