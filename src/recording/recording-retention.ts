import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

export interface RecordingRetention {
  /** A file is removed once its last write is this old. */
  readonly maxAgeMs: number;
  /** The oldest files are removed while the recordings together are larger. */
  readonly maxBytes: number;
}

const RECORDING_FILE = /\.mdg\.gz$/;

/**
 * Removes the recordings in `dir` that the retention no longer keeps, oldest first, never `writing`
 * (the file open now). Gives the names removed.
 */
export function pruneRecordings(
  dir: string,
  retention: RecordingRetention,
  now: number,
  writing?: string,
): string[] {
  const files = readdirSync(dir)
    .filter((name) => RECORDING_FILE.test(name))
    .map((name) => {
      const stat = statSync(join(dir, name));
      return { name, bytes: stat.size, writtenAt: stat.mtimeMs };
    })
    .sort((a, b) => a.writtenAt - b.writtenAt || (a.name < b.name ? -1 : 1));
  let total = files.reduce((sum, file) => sum + file.bytes, 0);
  const removed: string[] = [];
  for (const file of files) {
    if (join(dir, file.name) === writing) continue;
    if (now - file.writtenAt <= retention.maxAgeMs && total <= retention.maxBytes) continue;
    rmSync(join(dir, file.name), { force: true });
    total -= file.bytes;
    removed.push(file.name);
  }
  return removed;
}
