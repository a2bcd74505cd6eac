import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';
import {
  decodeHeader,
  decodeItem,
  RecordedItem,
  RecordingFormatError,
  RecordingHeader,
  RecordingLineError,
} from './recording-format';

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

  async *items(): AsyncGenerator<RecordedItem> {
    const file = createReadStream(this.path);
    await new Promise<void>((resolve, reject) => file.once('open', () => resolve()).once('error', reject));
    const gunzip = file.pipe(createGunzip());
    gunzip.setEncoding('utf8');
    let rest = '';
    let line = 0;
    try {
      for await (const chunk of gunzip as AsyncIterable<string>) {
        const parts = (rest + chunk).split('\n');
        rest = parts.pop()!;
        for (const text of parts) {
          line++;
          const item = this.take(text, line);
          if (item) yield item;
        }
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
