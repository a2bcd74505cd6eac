import { ExactJson, isJsonObject, parseExactJson } from '../exact-json';
import { previewJson } from '../json-preview';
import { RejectionReason } from '../upstream-rejections';

/** The gateway's frame types (`m`). */
export enum FrameType {
  Request = 0,
  Reply = 1,
  Subscribe = 2,
  Event = 3,
  Unsubscribe = 4,
  Error = 5,
}

/** A frame from the gateway: a reply or error echoing a request's `i`, or an event. */
export interface IncomingFrame {
  readonly type: FrameType.Reply | FrameType.Event | FrameType.Error;
  /** `i`: the request's number for replies and errors; a server counter on events (not for routing). */
  readonly sequence: number;
  /** `n`: the function or event name. */
  readonly name: string;
  /**
   * `o` parsed with every number kept as its exact text; null for an empty `o`. Error frames may
   * carry plain text ("Endpoint Not Found"), and so may the Ping reply ("PONG"): then it is that text.
   */
  readonly payload: ExactJson;
}

/** A frame that could not be read. */
export interface DecodeFailure {
  readonly ok: false;
  /** What was wrong, for logs; never the frame itself, which may hold a token. */
  readonly reason: string;
  readonly kind: Extract<RejectionReason, 'not-json' | 'invalid-frame' | 'payload-not-json'>;
  /** Set when the envelope was readable: a reply or error whose payload was not. */
  readonly answer?: { readonly sequence: number; readonly name: string };
}

export type DecodedFrame = { readonly ok: true; readonly frame: IncomingFrame } | DecodeFailure;

const INCOMING_TYPES: ReadonlySet<unknown> = new Set([FrameType.Reply, FrameType.Event, FrameType.Error]);

/** A request frame: `o` is the payload encoded as a JSON string (the gateway requires a string). */
export function encodeRequest(sequence: number, name: string, payload: unknown): string {
  return JSON.stringify({ m: FrameType.Request, i: sequence, n: name, o: JSON.stringify(payload ?? {}) });
}

/** Whether a frame's text names the function `name`, read from its start without decoding it (`{"m":…,"i":…,"n":…`). */
export function frameNamed(text: string, name: string): boolean {
  return text.slice(0, 64).includes(`"n":"${name}"`);
}

/**
 * Reads a frame `{m, i, n, o}` from the gateway. The envelope holds only small integers and strings,
 * so plain JSON.parse reads it; `o` is parsed so that decimals keep their digits.
 */
export function decodeFrame(text: string): DecodedFrame {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, kind: 'not-json', reason: 'the frame is not JSON' };
  }
  if (!isJsonObject(value as ExactJson))
    return { ok: false, kind: 'invalid-frame', reason: 'the frame is not a JSON object' };
  const { m, i, n, o } = value as Record<string, unknown>;
  if (!INCOMING_TYPES.has(m))
    return { ok: false, kind: 'invalid-frame', reason: `unexpected frame type m=${preview(m)}` };
  if (typeof i !== 'number' || !Number.isSafeInteger(i))
    return { ok: false, kind: 'invalid-frame', reason: '"i" is not an integer' };
  const name = typeof n === 'string' ? n : '';
  const type = m as IncomingFrame['type'];
  const answer = type === FrameType.Event ? undefined : { sequence: i, name };
  if (o === undefined || o === null || (typeof o === 'string' && o.trim() === ''))
    return { ok: true, frame: { type, sequence: i, name, payload: null } };
  if (typeof o !== 'string')
    return { ok: false, kind: 'invalid-frame', reason: '"o" is not a string', answer };
  try {
    return { ok: true, frame: { type, sequence: i, name, payload: parseExactJson(o) } };
  } catch {
    if (type === FrameType.Error || (type === FrameType.Reply && name === 'Ping'))
      return { ok: true, frame: { type, sequence: i, name, payload: o } };
    return {
      ok: false,
      kind: 'payload-not-json',
      reason: `"o" of ${preview(name) || 'the frame'} is not JSON`,
      answer,
    };
  }
}

/** A value of the envelope for a log line: short, whatever the gateway sent. */
function preview(value: unknown): string {
  return typeof value === 'string' && value.length <= 60 ? value : previewJson(value);
}
