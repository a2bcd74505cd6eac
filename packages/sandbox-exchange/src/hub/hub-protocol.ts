import { toJson } from '../http/json-number';
import { RECORD_SEPARATOR } from './hub-framing';
import { HubProtocolError } from './hub-protocol-error';

/** Message types of the SignalR JSON hub protocol, version 1. */
export enum MessageType {
  Invocation = 1,
  StreamItem = 2,
  Completion = 3,
  StreamInvocation = 4,
  CancelInvocation = 5,
  Ping = 6,
  Close = 7,
}

export interface InvocationMessage {
  readonly type: MessageType.Invocation;
  /** Absent for a call that expects no reply. */
  readonly invocationId?: string;
  readonly target: string;
  readonly arguments: readonly unknown[];
  readonly streamIds?: readonly string[];
}

export interface StreamItemMessage {
  readonly type: MessageType.StreamItem;
  readonly invocationId: string;
  readonly item: unknown;
}

export interface CompletionMessage {
  readonly type: MessageType.Completion;
  readonly invocationId: string;
  readonly result?: unknown;
  readonly error?: string;
}

export interface StreamInvocationMessage {
  readonly type: MessageType.StreamInvocation;
  readonly invocationId: string;
  readonly target: string;
  readonly arguments: readonly unknown[];
  readonly streamIds?: readonly string[];
}

export interface CancelInvocationMessage {
  readonly type: MessageType.CancelInvocation;
  readonly invocationId: string;
}

export interface PingMessage {
  readonly type: MessageType.Ping;
}

export interface CloseMessage {
  readonly type: MessageType.Close;
  readonly error?: string;
  readonly allowReconnect?: boolean;
}

export type HubMessage =
  | InvocationMessage
  | StreamItemMessage
  | CompletionMessage
  | StreamInvocationMessage
  | CancelInvocationMessage
  | PingMessage
  | CloseMessage;

export interface HandshakeRequest {
  readonly protocol: string;
  readonly version: number;
}

type JsonObject = Readonly<Record<string, unknown>>;

/**
 * Reads one message (without its separator). Message types this protocol version does not know
 * give `undefined`: the protocol lets both sides ignore them, so that it can grow.
 */
export function parseHubMessage(record: string): HubMessage | undefined {
  const message = parseObject(record);
  if (message.type === undefined) throw new HubProtocolError("Missing required property 'type'.");
  if (typeof message.type !== 'number' || !Number.isInteger(message.type)) {
    throw new HubProtocolError("Expected 'type' to be of type Integer.");
  }
  switch (message.type as MessageType) {
    case MessageType.Invocation:
      return {
        type: MessageType.Invocation,
        ...optional('invocationId', optionalString(message, 'invocationId')),
        target: requiredString(message, 'target'),
        arguments: requiredArray(message, 'arguments'),
        ...optional('streamIds', optionalStringArray(message, 'streamIds')),
      };
    case MessageType.StreamItem:
      if (!('item' in message)) throw new HubProtocolError("Missing required property 'item'.");
      return {
        type: MessageType.StreamItem,
        invocationId: requiredString(message, 'invocationId'),
        item: message.item,
      };
    case MessageType.Completion: {
      const error = optionalString(message, 'error');
      if (error !== undefined && 'result' in message) {
        throw new HubProtocolError("The 'error' and 'result' properties are mutually exclusive.");
      }
      return {
        type: MessageType.Completion,
        invocationId: requiredString(message, 'invocationId'),
        ...('result' in message ? { result: message.result } : {}),
        ...optional('error', error),
      };
    }
    case MessageType.StreamInvocation:
      return {
        type: MessageType.StreamInvocation,
        invocationId: requiredString(message, 'invocationId'),
        target: requiredString(message, 'target'),
        arguments: requiredArray(message, 'arguments'),
        ...optional('streamIds', optionalStringArray(message, 'streamIds')),
      };
    case MessageType.CancelInvocation:
      return { type: MessageType.CancelInvocation, invocationId: requiredString(message, 'invocationId') };
    case MessageType.Ping:
      return { type: MessageType.Ping };
    case MessageType.Close:
      return {
        type: MessageType.Close,
        ...optional('error', optionalString(message, 'error')),
        ...optional('allowReconnect', optionalBoolean(message, 'allowReconnect')),
      };
    default:
      return undefined;
  }
}

/** One message with its separator; prices and amounts given as `JsonNumber` stay exact. */
export function serializeHubMessage(message: HubMessage): string {
  return toJson(message) + RECORD_SEPARATOR;
}

/**
 * A stream item around an item that is already JSON, so that one book change serialised once can be
 * sent on every stream that carries it.
 */
export function streamItemFrame(invocationId: string, itemJson: string): string {
  return `{"type":${MessageType.StreamItem},"invocationId":${JSON.stringify(invocationId)},"item":${itemJson}}${RECORD_SEPARATOR}`;
}

export const PING_FRAME = serializeHubMessage({ type: MessageType.Ping });

/** A completion without result; plain JSON, since the client chose the invocation id. */
export function completionFrame(invocationId: string, error?: string): string {
  return (
    JSON.stringify({ type: MessageType.Completion, invocationId, ...optional('error', error) }) +
    RECORD_SEPARATOR
  );
}

/** Reads the client's first message, `{"protocol":"json","version":1}`. */
export function parseHandshakeRequest(record: string): HandshakeRequest {
  const request = parseObject(record);
  const protocol = requiredString(request, 'protocol');
  if (request.version === undefined) throw new HubProtocolError("Missing required property 'version'.");
  if (typeof request.version !== 'number' || !Number.isInteger(request.version)) {
    throw new HubProtocolError("Expected 'version' to be of type Integer.");
  }
  return { protocol, version: request.version };
}

/** The answer to the handshake: `{}` accepts it, an `error` refuses it. */
export function handshakeResponseFrame(error?: string): string {
  return JSON.stringify(error === undefined ? {} : { error }) + RECORD_SEPARATOR;
}

function parseObject(record: string): JsonObject {
  let value: unknown;
  try {
    value = JSON.parse(record);
  } catch {
    throw new HubProtocolError('Error reading JSON.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new HubProtocolError('Unexpected JSON Token Type. Expected a JSON Object.');
  }
  return value as JsonObject;
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

function requiredString(message: JsonObject, key: string): string {
  const value = optionalString(message, key);
  if (value === undefined) throw new HubProtocolError(`Missing required property '${key}'.`);
  return value;
}

function optionalString(message: JsonObject, key: string): string | undefined {
  const value = message[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new HubProtocolError(`Expected '${key}' to be of type String.`);
  return value;
}

function optionalBoolean(message: JsonObject, key: string): boolean | undefined {
  const value = message[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw new HubProtocolError(`Expected '${key}' to be of type Boolean.`);
  return value;
}

function requiredArray(message: JsonObject, key: string): readonly unknown[] {
  const value = message[key];
  if (value === undefined) throw new HubProtocolError(`Missing required property '${key}'.`);
  if (!Array.isArray(value)) throw new HubProtocolError(`Expected '${key}' to be of type Array.`);
  return value;
}

function optionalStringArray(message: JsonObject, key: string): readonly string[] | undefined {
  const value = message[key];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || !value.every((entry) => typeof entry === 'string')) {
    throw new HubProtocolError(`Expected '${key}' to be an Array of String.`);
  }
  return value as string[];
}
