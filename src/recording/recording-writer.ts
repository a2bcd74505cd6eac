import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { constants, createGzip, Gzip } from 'node:zlib';
import { encodeHeader, encodeItem, RECORDING_FORMAT, RecordedItem } from './recording-format';

export interface RecordingWriterOptions {
  readonly dir: string;
  /** The writing process's name, in the header and the file names. */
  readonly process: string;
  /** A new file this often (aligned to the clock: one an hour starts on the hour). */
  readonly rotateMs: number;
  /** What is written is flushed to the file this often: a crash loses at most this much. */
  readonly flushMs: number;
  /** The records each new file opens with: a checkpoint of every book held. */
  readonly checkpoint: () => readonly RecordedItem[];
  /** A file that cannot be written (a full disk): its records are dropped until the next file. */
  readonly onError: (error: Error) => void;
}

/** Lines are gathered up to about this many characters before they go to the compressor. */
const BATCH_CHARS = 64 * 1024;

interface OpenFile {
  readonly path: string;
  readonly gzip: Gzip;
  pending: string[];
  pendingLength: number;
  fd?: number;
  readonly endsAt: number;
}

/** The file a recording period starts: `<process>-<UTC time>.mdg.gz`, so that names sort by time. */
export function recordingFileName(process: string, openedAt: number): string {
  const stamp = new Date(openedAt)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.(\d+)Z$/, '.$1Z');
  return `${process}-${stamp}.mdg.gz`;
}

/**
 * Writes records to rotating gzip files in `dir`. Each file opens with the header and a checkpoint;
 * the compressed stream is flushed every `flushMs` and its bytes appended to the file as they come,
 * so that a file cut short by a crash reads up to its last flush.
 */
export class RecordingWriter {
  private current?: OpenFile;
  private readonly flushTimer: NodeJS.Timeout;
  private closed = false;
  private rotation?: NodeJS.Immediate;
  /** The newest time written: a file that follows opens no earlier. */
  private lastAt = 0;

  constructor(private readonly options: RecordingWriterOptions) {
    mkdirSync(options.dir, { recursive: true });
    this.flushTimer = setInterval(() => void this.flush(), options.flushMs);
    this.flushTimer.unref();
  }

  /** The file being written, if one is open. */
  get path(): string | undefined {
    return this.current?.path;
  }

  write(item: RecordedItem): void {
    if (this.closed) return;
    this.lastAt = Math.max(this.lastAt, item.at);
    const file = this.current ?? this.open(item.at);
    // The next file opens once this turn is over: the records the feeds hand on in one turn (a frame
    // of several hub messages) reach the books after all of them are recorded, and the checkpoint
    // that opens the file must hold them all.
    if (item.at >= file.endsAt) this.rotation ??= setImmediate(() => this.rotate());
    const line = encodeItem(item);
    file.pending.push(line);
    file.pendingLength += line.length;
    if (file.pendingLength >= BATCH_CHARS) this.drain(file);
  }

  /** Writes out what is buffered, as a whole compressed block a reader can read. */
  flush(): Promise<void> {
    const file = this.current;
    if (!file) return Promise.resolve();
    this.drain(file);
    return new Promise((resolve) => file.gzip.flush(constants.Z_SYNC_FLUSH, () => resolve()));
  }

  /** Hands the lines gathered to the compressor in one write: one native call a batch, not one a record. */
  private drain(file: OpenFile): void {
    if (file.pending.length === 0) return;
    file.gzip.write(file.pending.join(''));
    file.pending = [];
    file.pendingLength = 0;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.flushTimer);
    clearImmediate(this.rotation);
    const file = this.current;
    this.current = undefined;
    if (file) await this.end(file);
  }

  private rotate(): void {
    this.rotation = undefined;
    if (this.closed || !this.current) return;
    void this.end(this.current);
    this.open(this.lastAt);
  }

  private open(at: number): OpenFile {
    const { dir, process, rotateMs } = this.options;
    const path = join(dir, recordingFileName(process, at));
    const file: OpenFile = {
      path,
      gzip: createGzip(),
      pending: [],
      pendingLength: 0,
      endsAt: at - (at % rotateMs) + rotateMs,
    };
    try {
      file.fd = openSync(path, 'a');
    } catch (error) {
      this.options.onError(error as Error);
    }
    file.gzip.on('data', (bytes: Buffer) => this.append(file, bytes));
    file.gzip.on('error', (error) => this.options.onError(error));
    file.gzip.write(encodeHeader({ format: RECORDING_FORMAT, process, openedAt: at }));
    for (const item of this.options.checkpoint()) file.gzip.write(encodeItem(item));
    this.current = file;
    return file;
  }

  private append(file: OpenFile, bytes: Buffer): void {
    if (file.fd === undefined) return;
    try {
      writeSync(file.fd, bytes);
    } catch (error) {
      this.options.onError(error as Error);
      closeSync(file.fd);
      file.fd = undefined;
    }
  }

  private end(file: OpenFile): Promise<void> {
    this.drain(file);
    return new Promise((resolve) => {
      file.gzip.once('end', () => {
        if (file.fd !== undefined) closeSync(file.fd);
        file.fd = undefined;
        resolve();
      });
      file.gzip.end();
    });
  }
}
