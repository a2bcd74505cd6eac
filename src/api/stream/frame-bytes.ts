import { StreamReply } from './stream-reply';

/** The bytes of each message object sent, while the object lives: one serialisation for all its readers. */
const encoded = new WeakMap<StreamReply, Buffer>();

/**
 * The UTF-8 JSON of a frame. A message many connections share (a book update, a ticker record) is
 * serialised and encoded once, not once per reader.
 */
export function frameBytes(reply: StreamReply): Buffer {
  let bytes = encoded.get(reply);
  if (bytes === undefined) {
    bytes = Buffer.from(JSON.stringify(reply));
    encoded.set(reply, bytes);
  }
  return bytes;
}
