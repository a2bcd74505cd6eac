import { HubProtocolError } from './hub-protocol-error';

/** Ends every message of the JSON hub protocol, in both directions. */
export const RECORD_SEPARATOR = '\x1e';

/** Largest message a client may send (the server's default `MaximumReceiveMessageSize`). */
export const MAX_MESSAGE_BYTES = 32 * 1024;

/**
 * Cuts the text a client sends into messages. A websocket frame may hold several messages (the
 * client batches what it sends), and a message that is not terminated yet waits for the next frame.
 */
export class RecordReader {
  private pending = '';

  constructor(private readonly maxMessageBytes = MAX_MESSAGE_BYTES) {}

  /** The messages completed by `text`, without their separators. */
  push(text: string): string[] {
    const records = (this.pending + text).split(RECORD_SEPARATOR);
    this.pending = records.pop() ?? '';
    for (const record of records) this.checkSize(record);
    this.checkSize(this.pending);
    return records;
  }

  /** True when the text received so far ends inside a message. */
  get hasPending(): boolean {
    return this.pending.length > 0;
  }

  private checkSize(record: string): void {
    // A UTF-16 code unit takes at most three bytes in UTF-8, so short texts need no measuring.
    if (record.length * 3 > this.maxMessageBytes && Buffer.byteLength(record) > this.maxMessageBytes) {
      this.pending = '';
      throw new HubProtocolError(`The maximum message size of ${this.maxMessageBytes}B was exceeded.`);
    }
  }
}
