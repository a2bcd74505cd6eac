import { toJson } from '../http/json-number';

/** The gateway's frame types (`m`). */
export enum MessageType {
  Request = 0,
  Reply = 1,
  Subscribe = 2,
  Event = 3,
  Unsubscribe = 4,
  Error = 5,
}

/** A client frame whose envelope is valid; its payload text `o` is not parsed yet. */
export interface RequestFrame {
  readonly type: MessageType.Request | MessageType.Subscribe | MessageType.Unsubscribe;
  /** `i`, echoed by the reply. */
  readonly sequence: number;
  /** `n`, the function. */
  readonly name: string;
  /** `o` as sent: a JSON-encoded string, or undefined when the frame had none. */
  readonly payload: unknown;
}

export type DecodedFrame =
  | { readonly ok: true; readonly frame: RequestFrame }
  | { readonly ok: false; readonly sequence: number; readonly name: string; readonly reason: string };

export type Payload = Readonly<Record<string, unknown>>;

export type DecodedPayload =
  { readonly ok: true; readonly payload: Payload } | { readonly ok: false; readonly reason: string };

/**
 * The `o` of a server frame, already written as the JSON string literal that goes into the frame,
 * so that a payload shared by many sockets (an event) is serialized once.
 */
export class EncodedPayload {
  private constructor(readonly literal: string) {}

  /** `value` written as JSON (JsonNumbers as bare numbers), then quoted as the frame's `o` string. */
  static of(value: unknown): EncodedPayload {
    return new EncodedPayload(JSON.stringify(toJson(value)));
  }

  /** `o` that is plain text rather than JSON, as in the gateway's "Endpoint Not Found" error frame. */
  static text(text: string): EncodedPayload {
    return new EncodedPayload(JSON.stringify(text));
  }
}

export function encodeFrame(
  type: MessageType,
  sequence: number,
  name: string,
  payload: EncodedPayload,
): string {
  return `{"m":${type},"i":${sequence},"n":${JSON.stringify(name)},"o":${payload.literal}}`;
}

const CLIENT_TYPES: ReadonlySet<unknown> = new Set([
  MessageType.Request,
  MessageType.Subscribe,
  MessageType.Unsubscribe,
]);

/**
 * Reads a client frame `{m, i, n, o}`. `m` may be left out (a request); `i` may be 0 or left out,
 * as the exchange's own samples do; `n` must name a function.
 */
export function decodeFrame(text: string): DecodedFrame {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, sequence: 0, name: '', reason: 'the frame is not JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, sequence: 0, name: '', reason: 'the frame is not a JSON object' };
  const { m, i, n, o } = value as Record<string, unknown>;
  const sequence = i === undefined ? 0 : i;
  const name = typeof n === 'string' ? n : '';
  const fail = (reason: string): DecodedFrame => ({
    ok: false,
    sequence: isSequence(sequence) ? sequence : 0,
    name,
    reason,
  });
  if (!isSequence(sequence)) return fail('"i" must be a non-negative integer');
  if (name === '') return fail('"n" must name a function');
  const type = m === undefined ? MessageType.Request : m;
  if (!CLIENT_TYPES.has(type)) return fail('"m" must be 0 (request), 2 (subscribe) or 4 (unsubscribe)');
  return { ok: true, frame: { type: type as RequestFrame['type'], sequence, name, payload: o } };
}

/** Parses a request's `o`: a string holding a JSON object; a missing or empty `o` is `{}`. */
export function decodePayload(o: unknown): DecodedPayload {
  if (o === undefined || o === null || (typeof o === 'string' && o.trim() === ''))
    return { ok: true, payload: {} };
  if (typeof o !== 'string') return { ok: false, reason: '"o" must be a JSON-encoded string' };
  let value: unknown;
  try {
    value = JSON.parse(o);
  } catch {
    return { ok: false, reason: '"o" is not valid JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, reason: '"o" must encode a JSON object' };
  return { ok: true, payload: value as Payload };
}

function isSequence(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}
