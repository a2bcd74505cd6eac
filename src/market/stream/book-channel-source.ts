import { BookSnapshotMessage } from './book-channel-message';

/** What a connection's sequencer reads of the book its channel follows. */
export interface BookChannelSource {
  readonly channel: string;
  readonly live: boolean;
  /** The whole book at its current version; only while live. */
  snapshot(): BookSnapshotMessage;
}
