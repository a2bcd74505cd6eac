import { BookMessage } from '../../market/book-update';
import { MalformedBookItemError } from './book-item-codec';

/** What a `Book` stream of one instrument tells its owner. */
export interface BookListener {
  /**
   * One item of the stream, in order. After any interruption the next message is a fresh
   * snapshot, as the stream is opened anew.
   */
  onMessage(message: BookMessage): void;
  /**
   * The stream broke: it failed, the server completed it, or its connection dropped. The client
   * opens it again by itself as soon as it can; the book is unknown until the next snapshot.
   */
  onInterrupted(reason: string): void;
  /** An item that is not a valid book message; it was skipped, so the book may now be behind. */
  onMalformed(error: MalformedBookItemError): void;
  /**
   * The stream was just opened on a connection: its snapshot is on the way. Streams are opened a
   * few at a time, so this may come long after the subscription was made.
   */
  onOpened?(): void;
}

/** An open interest in one instrument's `Book` stream, kept open across every reconnect. */
export interface BookSubscription {
  readonly instrument: string;
  /** Drops the stream and opens a fresh one, which starts with a new snapshot. */
  restart(): void;
  /** Drops the stream for good; the listener hears nothing more. */
  close(): void;
}
