import { quoted, StreamError } from './stream-error';

export type ClientRequest =
  | { readonly op: 'subscribe'; readonly channels: readonly string[] }
  | { readonly op: 'unsubscribe'; readonly channels: readonly string[] }
  | { readonly op: 'ping' };

/**
 * | code                | when                                                                 |
 * |---------------------|----------------------------------------------------------------------|
 * | `frame_too_large`   | the frame's UTF-8 text is longer than the limit; it is not read      |
 * | `bad_json`          | the frame is not JSON                                                |
 * | `bad_frame`         | the frame is JSON but not an object                                  |
 * | `unknown_op`        | `op` is missing, not a string, or not `subscribe`, `unsubscribe` or  |
 * |                     | `ping`                                                               |
 * | `bad_channels`      | `channels` is missing, not an array, empty, or holds a non-string    |
 * | `too_many_channels` | `channels` names more channels than one frame may                    |
 */
export type ClientFrameErrorCode =
  'frame_too_large' | 'bad_json' | 'bad_frame' | 'unknown_op' | 'bad_channels' | 'too_many_channels';

export type ClientFrame =
  | { readonly ok: true; readonly request: ClientRequest }
  | { readonly ok: false; readonly error: StreamError<ClientFrameErrorCode> };

export interface ClientFrameLimits {
  /** Of the frame's UTF-8 text. */
  readonly maxFrameBytes: number;
  readonly maxChannelsPerFrame: number;
}

/**
 * Reads a client's text frame. Fields other than `op` and `channels` are ignored, so that a client may
 * tag its requests; channel names are returned as written, for `parseStreamChannel` to read one by one.
 */
export function readClientFrame(text: string, limits: ClientFrameLimits): ClientFrame {
  // Each UTF-16 unit takes at least one byte: a text longer than the limit needs no counting.
  if (text.length > limits.maxFrameBytes || Buffer.byteLength(text, 'utf8') > limits.maxFrameBytes)
    return failure('frame_too_large', `frame larger than ${limits.maxFrameBytes} bytes`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return failure('bad_json', 'the frame is not JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return failure('bad_frame', 'the frame is not a JSON object');
  const { op, channels } = value as { op?: unknown; channels?: unknown };
  if (op === 'ping') return { ok: true, request: { op } };
  if (op !== 'subscribe' && op !== 'unsubscribe') {
    const named = typeof op === 'string' ? `unknown op ${quoted(op)}` : 'no op, or not a string';
    return failure('unknown_op', `${named}: expected "subscribe", "unsubscribe" or "ping"`);
  }
  if (!Array.isArray(channels) || channels.length === 0)
    return failure('bad_channels', `${op} needs "channels", an array of channel names`);
  if (channels.length > limits.maxChannelsPerFrame)
    return failure('too_many_channels', `at most ${limits.maxChannelsPerFrame} channels per frame`);
  if (!channels.every((channel) => typeof channel === 'string'))
    return failure('bad_channels', 'every channel is a string');
  return { ok: true, request: { op, channels } };
}

function failure(code: ClientFrameErrorCode, message: string): ClientFrame {
  return { ok: false, error: { code, message } };
}
