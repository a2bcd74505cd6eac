import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { RecordingFormatError, RecordingHeader } from '../recording/recording-format';
import { RecordingReader } from '../recording/recording-reader';

/** One file of a recording directory, by its header. */
export interface RecordingFile {
  readonly path: string;
  readonly header: RecordingHeader;
}

/** A file of the directory that is no recording this reader can read, and why. */
export interface UnreadableFile {
  readonly path: string;
  readonly message: string;
}

const RECORDING_FILE = /\.mdg\.gz$/;

/** The recordings in `dir`, oldest first, each by its header; files that are none are listed apart. */
export async function recordingFiles(
  dir: string,
): Promise<{ files: RecordingFile[]; unreadable: UnreadableFile[] }> {
  const files: RecordingFile[] = [];
  const unreadable: UnreadableFile[] = [];
  for (const name of readdirSync(dir)
    .filter((entry) => RECORDING_FILE.test(entry))
    .sort()) {
    const path = join(dir, name);
    const reader = new RecordingReader(path);
    try {
      // The header is read with the first record; stopping there leaves the rest unread.
      const items = reader.items();
      await items.next();
      await items.return(undefined);
    } catch (error) {
      if (!(error instanceof RecordingFormatError)) throw error;
      unreadable.push({ path, message: error.message });
      continue;
    }
    if (reader.header) files.push({ path, header: reader.header });
    else unreadable.push({ path, message: 'no header: the file is empty or cut before its first line' });
  }
  files.sort((a, b) => a.header.openedAt - b.header.openedAt || (a.path < b.path ? -1 : 1));
  return { files, unreadable };
}

/**
 * For each process, the file that was being written at `at`: its last file opened at or before then.
 */
export function filesAt(files: readonly RecordingFile[], at: number): RecordingFile[] {
  const byProcess = new Map<string, RecordingFile>();
  for (const file of files) if (file.header.openedAt <= at) byProcess.set(file.header.process, file);
  return [...byProcess.values()];
}
