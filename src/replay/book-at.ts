import { existsSync } from 'node:fs';
import { RecordingReader } from '../recording/recording-reader';
import { BookAtAnswer } from './book-at-answer';
import { FeedGap, RecordedMarket } from './recorded-market';
import { filesAt, RecordingFile, recordingFiles, UnreadableFile } from './recording-files';

/** Gaps this close to the moment asked about are reported with it. */
const GAP_WINDOW_MS = 5 * 60_000;
const LAST_TRADES = 50;

export class BookAtError extends Error {}

export const MOMENT_FORMS = 'an ISO 8601 time with its zone or Unix milliseconds';

/** A moment given as an ISO 8601 time with its zone, or as Unix milliseconds; undefined for anything else. */
export function momentOf(text: string): number | undefined {
  if (/^\d{1,16}$/.test(text)) return Number(text);
  const iso = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/.test(text);
  const ms = iso ? Date.parse(text) : NaN;
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * The book, trades, published figures and feed gaps of `instrument` at `at` (Unix ms), as the
 * recording in `dir` holds them: each process's file of that moment is replayed from its start (a
 * checkpoint of every book) up to the moment, and the process that last heard of the market answers.
 */
export async function bookAt(dir: string, instrument: string, at: number): Promise<BookAtAnswer> {
  if (!existsSync(dir)) throw new BookAtError(`no directory ${dir}`);
  const { files, unreadable } = await recordingFiles(dir);
  const candidates = filesAt(files, at);
  if (candidates.length === 0)
    throw new BookAtError(
      files.length === 0
        ? `no recording in ${dir}${unreadable.length > 0 ? ` (${describeUnreadable(unreadable)})` : ''}`
        : `the recording starts at ${iso(files[0].header.openedAt)}, after ${iso(at)}`,
    );
  const replays = await Promise.all(candidates.map((file) => replay(file, instrument, at)));
  const answering = replays
    .filter((replay) => replay.market.lastEventAt !== undefined)
    .sort((a, b) => b.market.lastEventAt! - a.market.lastEventAt!)[0];
  if (!answering)
    throw new BookAtError(`${instrument}: nothing recorded of it between the file's start and ${iso(at)}`);
  const { market, file } = answering;
  const problems = [
    ...unreadable.map(({ path, message }) => `${path}: ${message}`),
    ...replays.flatMap((replay) => replay.problems),
  ];
  return {
    instrument,
    at: iso(at),
    process: file.header.process,
    file: file.path,
    book: market.book(),
    trades: market.lastTrades(LAST_TRADES),
    ...(market.published
      ? { published: { at: iso(market.published.at), figures: market.published.figures } }
      : {}),
    gaps: market.gaps
      .filter((gap) => gap.from <= at + GAP_WINDOW_MS && (gap.to ?? Infinity) >= at - GAP_WINDOW_MS)
      .map(shownGap),
    problems,
  };
}

interface Replay {
  readonly file: RecordingFile;
  readonly market: RecordedMarket;
  readonly problems: string[];
}

/** Replays `file` up to `at` for the market, and on for the gaps' sake until the window after it. */
async function replay(file: RecordingFile, instrument: string, at: number): Promise<Replay> {
  const market = new RecordedMarket(instrument, file.header.openedAt);
  const reader = new RecordingReader(file.path);
  // Up to the moment, the market's own records and those that name no market (frames, REST answers,
  // gaps); after it only the gaps, which leave the book as it was.
  const select = (itemAt: number, kind: string, of: string | undefined) =>
    itemAt > at + GAP_WINDOW_MS
      ? 'end'
      : itemAt > at
        ? kind === 'gap'
        : of === undefined || of === instrument;
  for await (const item of reader.items(select)) market.take(item);
  return { file, market, problems: reader.messages() };
}

function shownGap(gap: FeedGap): { feed: string; from: string; to?: string } {
  return { feed: gap.feed, from: iso(gap.from), ...(gap.to !== undefined ? { to: iso(gap.to) } : {}) };
}

function describeUnreadable(files: readonly UnreadableFile[]): string {
  return files.map(({ path, message }) => `${path}: ${message}`).join('; ');
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
