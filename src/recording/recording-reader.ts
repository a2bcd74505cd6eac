import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { constants, createGunzip } from 'node:zlib';
import {
  decodeHeader,
  decodeItem,
  RecordedItem,
  RecordingFormatError,
  RecordingHeader,
  RecordingLineError,
} from './recording-format';

/**
 * Which records a reader decodes, from the start of each line alone: true to decode it, false to pass
 * over it undecoded (and unchecked), 'end' to stop reading.
 */
export type RecordSelection = (at: number, kind: string, instrument: string | undefined) => boolean | 'end';

/** Read and inflated a mebibyte at a time: each step is a round trip to libuv's thread pool. */
const CHUNK_BYTES = 1 << 20;

/** The start of every line this project writes (see encodeItem): its time, kind and instrument. */
const LINE_START = /^\{"at":(\d+),"kind":"([a-z]+)"(?:,"instrument":"([^"\\]*)")?/;

/** A line that could not be read, by its number in the file (the header is line 1). */
export interface RecordingProblem {
  readonly line: number;
  readonly message: string;
}

/**
 * Reads one recording file, record by record. A damaged line is noted in `problems` and skipped; a
 * file that ends before its compressed stream does (a crash, a full disk) is read up to its last whole
 * line and `cutAfterLine` says where it stopped. A file of another format throws RecordingFormatError
 * before any record.
 */
export class RecordingReader {
  readonly problems: RecordingProblem[] = [];
  header?: RecordingHeader;
  /** The last whole line of a file cut short; undefined when the file ended as it should. */
  cutAfterLine?: number;

  constructor(readonly path: string) {}

  async *items(select?: RecordSelection): AsyncGenerator<RecordedItem> {
    const file = createReadStream(this.path, { highWaterMark: CHUNK_BYTES });
    await new Promise<void>((resolve, reject) => file.once('open', () => resolve()).once('error', reject));
    // Inflated up to the end of what is there, whole or cut: a cut is told from the trailer.
    const gunzip = file.pipe(createGunzip({ chunkSize: CHUNK_BYTES, finishFlush: constants.Z_SYNC_FLUSH }));
    const decoder = new StringDecoder('utf8');
    let inflated = 0;
    let rest = '';
    let line = 0;
    try {
      for await (const chunk of gunzip as AsyncIterable<Buffer>) {
        inflated += chunk.length;
        const parts = (rest + decoder.write(chunk)).split('\n');
        rest = parts.pop()!;
        for (const text of parts) {
          line++;
          const selected = line === 1 || !select ? true : selectLine(select, text);
          if (selected === 'end') return;
          const item = selected ? this.take(text, line) : undefined;
          if (item) yield item;
        }
      }
      if (!(await endsWithTrailerOf(this.path, inflated))) {
        this.cutAfterLine = line;
        return;
      }
    } catch (error) {
      if (error instanceof RecordingFormatError) throw error;
      if ((error as NodeJS.ErrnoException).code !== 'Z_BUF_ERROR') {
        this.problems.push({ line: line + 1, message: `unreadable from here: ${(error as Error).message}` });
        return;
      }
      this.cutAfterLine = line;
      return;
    } finally {
      // A caller that stops early (it found its moment) must not leave the file open.
      file.destroy();
      gunzip.destroy();
    }
    if (rest !== '') {
      this.problems.push({ line: line + 1, message: 'the last line has no end' });
    }
  }

  /** What the reading met, one message each, named by the file: its damaged lines, where it was cut. */
  messages(): string[] {
    const messages = this.problems.map(({ line, message }) => `${this.path}, line ${line}: ${message}`);
    if (this.cutAfterLine !== undefined)
      messages.push(`${this.path}: cut short after line ${this.cutAfterLine}; read up to there`);
    return messages;
  }

  private take(text: string, line: number): RecordedItem | undefined {
    if (line === 1) {
      this.header = decodeHeader(text);
      return undefined;
    }
    try {
      return decodeItem(text);
    } catch (error) {
      if (!(error instanceof RecordingLineError)) throw error;
      this.problems.push({ line, message: error.message });
      return undefined;
    }
  }
}

/** A line whose start is not this project's own is decoded, so that what is wrong with it is said. */
function selectLine(select: RecordSelection, text: string): boolean | 'end' {
  const start = LINE_START.exec(text);
  return start ? select(Number(start[1]), start[2], start[3]) : true;
}

/**
 * Whether the file ends with the gzip trailer of `inflated` bytes: its last four bytes are the length
 * inflated, modulo 2^32. A file cut short (a crash, a full disk, one still being written) ends elsewhere.
 */
async function endsWithTrailerOf(path: string, inflated: number): Promise<boolean> {
  const file = await open(path);
  try {
    const { size } = await file.stat();
    if (size < 18) return false;
    const tail = Buffer.alloc(4);
    await file.read(tail, 0, 4, size - 4);
    return tail.readUInt32LE(0) === inflated % 2 ** 32;
  } finally {
    await file.close();
  }
}
