import { PriceLevel } from '../market/book-update';
import { Trade } from '../market/trade';

/**
 * A recording is gzip-compressed text, one JSON object a line. The first line names the format and the
 * process that wrote it; every other line is one record: what arrived (or was published), when, and its
 * text exactly as it was, so that a replay hands the gateway the same bytes.
 */
export const RECORDING_FORMAT = 'mdg-recording/1';

/**
 * - `hub`, `frame`: a SignalR hub message, a websocket gateway frame, as received;
 * - `rest`: a REST answer (`source` its path and query);
 * - `checkpoint`: a market held when the file was opened (`data` a Checkpoint);
 * - `published`: a market's listing figures as the gateway published them;
 * - `gap`: the feed named in `source` went down (`data` `down`) or came back (`up`).
 */
export const RECORD_KINDS = ['hub', 'frame', 'rest', 'checkpoint', 'published', 'gap'] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];

export interface RecordingHeader {
  readonly format: typeof RECORDING_FORMAT;
  /** The process that wrote it (its replica name). */
  readonly process: string;
  /** Unix milliseconds. */
  readonly openedAt: number;
}

export interface RecordedItem {
  /** When it arrived or was published, Unix milliseconds. */
  readonly at: number;
  readonly kind: RecordKind;
  readonly instrument?: string;
  /** Where it came from: the hub method, the gateway function, the REST path. */
  readonly source?: string;
  /** The text as it was, never re-encoded. */
  readonly data: string;
}

/** The `data` of a `checkpoint` record: a market as the process held it when the file was opened. */
export interface Checkpoint {
  readonly version: number;
  readonly state: string;
  readonly bids: readonly PriceLevel[];
  readonly asks: readonly PriceLevel[];
  /** Its newest trades, oldest first. */
  readonly trades?: readonly Trade[];
  /** Its listing figures as last published, and when. */
  readonly published?: { readonly at: number; readonly figures: unknown };
}

/** A line that is not a record of this format: named by its file and line, the reading goes on. */
export class RecordingLineError extends Error {}

/** A file that is not a recording of a format this reader knows: nothing of it is read. */
export class RecordingFormatError extends Error {}

export function encodeHeader(header: RecordingHeader): string {
  return `${JSON.stringify(header)}\n`;
}

export function encodeItem(item: RecordedItem): string {
  return `${JSON.stringify(item)}\n`;
}

/** The header of a recording's first line; a RecordingFormatError says what was found instead. */
export function decodeHeader(line: string): RecordingHeader {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    throw new RecordingFormatError(`not a recording: the first line is not JSON (${excerpt(line)})`);
  }
  const header = parsed as Partial<RecordingHeader>;
  if (header?.format !== RECORDING_FORMAT)
    throw new RecordingFormatError(
      `unknown recording format ${JSON.stringify(header?.format ?? null)}: this reader knows ${RECORDING_FORMAT}`,
    );
  if (typeof header.process !== 'string' || !Number.isSafeInteger(header.openedAt))
    throw new RecordingFormatError(`the header lacks its process or openedAt (${excerpt(line)})`);
  return { format: RECORDING_FORMAT, process: header.process, openedAt: header.openedAt! };
}

/** One record line; a RecordingLineError says what is wrong with it. */
export function decodeItem(line: string): RecordedItem {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    throw new RecordingLineError(`not JSON: ${excerpt(line)}`);
  }
  const item = parsed as Partial<Record<keyof RecordedItem, unknown>> | null;
  if (!item || typeof item !== 'object') throw new RecordingLineError(`not a record: ${excerpt(line)}`);
  if (!Number.isSafeInteger(item.at)) throw new RecordingLineError(`no time (at): ${excerpt(line)}`);
  if (!RECORD_KINDS.includes(item.kind as RecordKind))
    throw new RecordingLineError(`unknown kind ${JSON.stringify(item.kind ?? null)}: ${excerpt(line)}`);
  if (typeof item.data !== 'string') throw new RecordingLineError(`no data: ${excerpt(line)}`);
  for (const name of ['instrument', 'source'] as const)
    if (item[name] !== undefined && typeof item[name] !== 'string')
      throw new RecordingLineError(`${name} is not text: ${excerpt(line)}`);
  return item as unknown as RecordedItem;
}

function excerpt(line: string): string {
  return JSON.stringify(line.length > 80 ? `${line.slice(0, 80)}…` : line);
}
