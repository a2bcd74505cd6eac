import {
  HubMessage,
  IHubProtocol,
  ILogger,
  LogLevel,
  MessageType,
  NullLogger,
  TransferFormat,
} from '@microsoft/signalr';
import { ExactJson, isJsonObject, parseExactJson } from '../exact-json';
import { BookItem, readBookItem } from './book-item-codec';
import { readHubFormBookItem } from './book-item-reader';
import { RejectionReason } from '../upstream-rejections';
import { UpstreamTap } from '../upstream-tap';

/** Ends every message of the JSON hub protocol. */
export const RECORD_SEPARATOR = '\x1e';

/** A hub message that could not be read; it was skipped. */
export class MalformedHubMessageError extends Error {
  constructor(
    /** The kind of fault, for metrics. */
    readonly kind: RejectionReason,
    reason: string,
    /** The message as received, without its separator. */
    readonly text: string,
  ) {
    super(`${reason} in hub message ${preview(text)}`);
    this.name = 'MalformedHubMessageError';
  }
}

function preview(text: string): string {
  const quoted = JSON.stringify(text);
  return quoted.length > 120 ? `${quoted.slice(0, 117)}...` : quoted;
}

type JsonObject = { readonly [key: string]: ExactJson };

const INTEGER = /^-?\d+$/;

/**
 * The SignalR JSON hub protocol (name `json`, version 1, text frames of messages each ending with
 * 0x1E), read without binary floating point: every number inside a message keeps the exact text the
 * server wrote, so a Book item's prices and amounts keep all their digits. Outside stream items,
 * only the protocol's own integers (`type`, `sequenceId`) are turned back into numbers.
 *
 * The hub's only stream is `Book`, so every stream item reaches the client as a BookItem: read
 * straight from the record when laid out exactly as the hub writes it (see readHubFormBookItem), the
 * hot path of the ingest, and otherwise parsed generically and read by readBookItem. An item that is
 * no valid Book item still goes on, rejected, for its stream to count.
 *
 * Unlike the official protocol, a message that cannot be read is handed to `onMalformed` and
 * skipped, so one bad message costs that message and not the connection. The handshake response is
 * read by the official client itself and never reaches this protocol.
 */
export class ExactJsonHubProtocol implements IHubProtocol {
  readonly name = 'json';
  readonly version = 1;
  readonly transferFormat = TransferFormat.Text;

  constructor(
    private readonly onMalformed: (error: MalformedHubMessageError) => void = () => undefined,
    /** Hears every record but pings, as received, with the instrument of a Book item. */
    private readonly tap?: UpstreamTap,
  ) {}

  parseMessages(input: string | ArrayBuffer, logger: ILogger | null): HubMessage[] {
    if (typeof input !== 'string') {
      this.onMalformed(new MalformedHubMessageError('binary', 'binary data', `${input.byteLength} bytes`));
      return [];
    }
    const messages: HubMessage[] = [];
    let start = 0;
    for (let end = input.indexOf(RECORD_SEPARATOR); end >= 0; end = input.indexOf(RECORD_SEPARATOR, start)) {
      const record = input.slice(start, end);
      start = end + 1;
      try {
        const message = this.readMessage(record, logger ?? NullLogger.instance);
        if (message) messages.push(message);
        if (this.tap?.listening && message?.type !== MessageType.Ping)
          this.tap.hub(record, instrumentOf(message));
      } catch (error) {
        if (this.tap?.listening) this.tap.hub(record, undefined);
        const kind = error instanceof NotJsonError ? 'not-json' : 'invalid-message';
        this.onMalformed(new MalformedHubMessageError(kind, (error as Error).message, record));
      }
    }
    // A complete frame ends with the separator, which leaves nothing after it.
    const unterminated = input.slice(start);
    if (unterminated !== '')
      this.onMalformed(new MalformedHubMessageError('unterminated', 'no record separator', unterminated));
    return messages;
  }

  writeMessage(message: HubMessage): string {
    return JSON.stringify(message) + RECORD_SEPARATOR;
  }

  /** The message in `record`, or undefined for a type this client does not know (ignored, as the protocol asks). */
  private readMessage(record: string, logger: ILogger): HubMessage | undefined {
    const bookItem = readHubFormBookItem(record);
    if (bookItem) return bookItem;
    let parsed: ExactJson;
    try {
      parsed = parseExactJson(record);
    } catch (error) {
      throw new NotJsonError(`invalid JSON (${(error as Error).message})`);
    }
    if (!isJsonObject(parsed)) throw new Error('not a JSON object');
    const type = integerField(parsed, 'type');
    switch (type) {
      case MessageType.Invocation:
        requireText(parsed, 'target');
        if (parsed.invocationId !== undefined) requireText(parsed, 'invocationId');
        return { ...parsed, type } as HubMessage;
      case MessageType.StreamItem:
        requireText(parsed, 'invocationId');
        if (parsed.item === undefined) throw new Error('a StreamItem message without an item');
        return { ...parsed, type, item: readBookItem(parsed.item) } as HubMessage;
      case MessageType.Completion:
        requireText(parsed, 'invocationId');
        if (present(parsed.error) && present(parsed.result)) {
          throw new Error('a Completion message with both a result and an error');
        }
        if (present(parsed.error)) requireText(parsed, 'error');
        return { ...parsed, type } as HubMessage;
      case MessageType.Ping:
      case MessageType.Close:
        return { ...parsed, type } as HubMessage;
      case MessageType.Ack:
      case MessageType.Sequence:
        return { ...parsed, type, sequenceId: integerField(parsed, 'sequenceId') } as HubMessage;
      default:
        logger.log(LogLevel.Information, `Unknown message type '${type}' ignored.`);
        return undefined;
    }
  }
}

class NotJsonError extends Error {}

function instrumentOf(message: HubMessage | undefined): string | undefined {
  return message?.type === MessageType.StreamItem ? (message.item as BookItem).instrument : undefined;
}

function present(value: ExactJson | undefined): boolean {
  return value !== undefined && value !== null;
}

function integerField(message: JsonObject, key: string): number {
  const value = message[key];
  const number = typeof value === 'string' && INTEGER.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(number)) throw new Error(`"${key}" is not an integer`);
  return number;
}

function requireText(message: JsonObject, key: string): void {
  const value = message[key];
  if (typeof value !== 'string' || value === '') throw new Error(`"${key}" is not a non-empty string`);
}
