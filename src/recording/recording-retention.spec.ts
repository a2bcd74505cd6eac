import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pruneRecordings } from './recording-retention';

const HOUR_MS = 3_600_000;
const NOW = Date.UTC(2026, 11, 3, 12, 0, 0);

describe('pruneRecordings', () => {
  let dir: string;
  /** A file of `bytes` last written `hoursAgo` before NOW. */
  const file = (name: string, bytes: number, hoursAgo: number) => {
    writeFileSync(join(dir, name), Buffer.alloc(bytes));
    const at = (NOW - hoursAgo * HOUR_MS) / 1000;
    utimesSync(join(dir, name), at, at);
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'retention-'));
    file('a-1.mdg.gz', 100, 50);
    file('a-2.mdg.gz', 100, 30);
    file('a-3.mdg.gz', 100, 2);
    file('a-4.mdg.gz', 100, 0);
    file('notes.txt', 10_000, 100);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('removes the files older than the age, and only recordings', () => {
    expect(pruneRecordings(dir, { maxAgeMs: 24 * HOUR_MS, maxBytes: 1e9 }, NOW)).toEqual([
      'a-1.mdg.gz',
      'a-2.mdg.gz',
    ]);
    expect(readdirSync(dir).sort()).toEqual(['a-3.mdg.gz', 'a-4.mdg.gz', 'notes.txt']);
  });

  it('removes the oldest while the recordings are over the size, never the one being written', () => {
    expect(pruneRecordings(dir, { maxAgeMs: 1e12, maxBytes: 150 }, NOW, join(dir, 'a-3.mdg.gz'))).toEqual([
      'a-1.mdg.gz',
      'a-2.mdg.gz',
      'a-4.mdg.gz',
    ]);
    expect(readdirSync(dir).sort()).toEqual(['a-3.mdg.gz', 'notes.txt']);
  });
});
