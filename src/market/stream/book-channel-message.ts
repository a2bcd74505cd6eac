import { PriceLevel } from '../book-update';

/** The whole book: a reader replaces what it holds with it. */
export interface BookSnapshotMessage {
  readonly type: 'snapshot';
  readonly channel: string;
  /** The book's version. */
  readonly seq: number;
  /** Best first: bids descending, asks ascending. */
  readonly bids: readonly PriceLevel[];
  readonly asks: readonly PriceLevel[];
  /** `bookChecksum` of the book. */
  readonly checksum: number;
  /** Unix milliseconds of the book's last change. */
  readonly ts: number;
}

/** The levels that changed, amount "0" for a level removed, in no particular order. */
export interface BookUpdateMessage {
  readonly type: 'update';
  readonly channel: string;
  /** The book's version after the update. */
  readonly seq: number;
  /** The `seq` of the previous message of the channel on this connection: a reader holding another missed some. */
  readonly prevSeq: number;
  readonly bids: readonly PriceLevel[];
  readonly asks: readonly PriceLevel[];
  /** `bookChecksum` of the book after the update. */
  readonly checksum: number;
  readonly ts: number;
}

/** The gateway's own book is not live: nothing follows until a new snapshot. */
export interface BookStatusMessage {
  readonly type: 'status';
  readonly channel: string;
  readonly state: 'resyncing';
}

export type BookChannelMessage = BookSnapshotMessage | BookUpdateMessage | BookStatusMessage;
