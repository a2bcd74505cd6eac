import { mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { RecordedItem, RecordingFormatError } from './recording-format';
import { RecordingReader } from './recording-reader';
import { RecordingWriter } from './recording-writer';

const HOUR_MS = 3_600_000;
const T0 = Date.UTC(2026, 11, 3, 10, 59, 0);

function item(at: number, data: string, instrument = 'btc_usdt'): RecordedItem {
  return { at, kind: 'hub', instrument, source: 'Book', data };
}

async function readAll(path: string): Promise<{ reader: RecordingReader; items: RecordedItem[] }> {
  const reader = new RecordingReader(path);
  const items: RecordedItem[] = [];
  for await (const each of reader.items()) items.push(each);
  return { reader, items };
}

describe('recordings', () => {
  let dir: string;
  const errors: Error[] = [];
  const writer = (checkpoint: () => RecordedItem[] = () => []) =>
    new RecordingWriter({
      dir,
      process: 'ingest-1',
      rotateMs: HOUR_MS,
      flushMs: 60_000,
      checkpoint,
      onError: (error) => errors.push(error),
    });

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'recording-'));
    errors.length = 0;
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads back every record as written, its text untouched, after the header', async () => {
    const recorder = writer();
    const written = [item(T0, '{"p":65000.10,"ü":"1e-8"}'), item(T0 + 1, 'not even JSON, kept as text')];
    for (const each of written) recorder.write(each);
    await recorder.close();
    const [file] = readdirSync(dir);
    expect(file).toBe('ingest-1-20261203T105900.000Z.mdg.gz');
    const { reader, items } = await readAll(join(dir, file));
    expect(reader.header).toEqual({ format: 'mdg-recording/1', process: 'ingest-1', openedAt: T0 });
    expect(items).toEqual(written);
    expect(reader.problems).toEqual([]);
    expect(reader.cutAfterLine).toBeUndefined();
    expect(errors).toEqual([]);
  });

  it('starts a file each period, after the turn that passed its end, opening with a checkpoint of the books held then', async () => {
    let books = 0;
    const recorder = writer(() => [
      { at: 0, kind: 'checkpoint', instrument: 'btc_usdt', data: `book ${++books}` },
    ]);
    recorder.write(item(T0, 'a'));
    recorder.write(item(T0 + 59_999, 'b'));
    // Past the hour: the file changes once the turn is over, so that the books have taken 'c' and 'd'.
    recorder.write(item(T0 + 60_000, 'c'));
    recorder.write(item(T0 + 60_001, 'd'));
    await new Promise((resolve) => setImmediate(resolve));
    recorder.write(item(T0 + 60_002, 'e'));
    await recorder.close();
    const files = readdirSync(dir).sort();
    expect(files).toEqual(['ingest-1-20261203T105900.000Z.mdg.gz', 'ingest-1-20261203T110000.001Z.mdg.gz']);
    const read = await Promise.all(files.map((file) => readAll(join(dir, file))));
    expect(read.map(({ items }) => items.map((each) => each.data))).toEqual([
      ['book 1', 'a', 'b', 'c', 'd'],
      ['book 2', 'e'],
    ]);
  });

  it('reads a file cut short anywhere up to its last whole line, and says where it was cut', async () => {
    const recorder = writer();
    const written = Array.from({ length: 2_000 }, (_, at) => item(T0 + at, `update ${at} `.repeat(20)));
    for (const each of written) {
      recorder.write(each);
      if (Number(each.at) % 100 === 0) await recorder.flush();
    }
    await recorder.close();
    const path = join(dir, readdirSync(dir)[0]);
    const whole = readFileSync(path);
    for (const bytes of [whole.length - 1, Math.floor(whole.length / 2), 200, 30]) {
      writeFileSync(path, whole);
      truncateSync(path, bytes);
      const { reader, items } = await readAll(path);
      expect(items).toEqual(written.slice(0, items.length));
      expect(reader.cutAfterLine).toBe(items.length + (reader.header ? 1 : 0));
      expect(reader.problems).toEqual([]);
    }
  });

  it('keeps what was flushed before the process stopped writing', async () => {
    const recorder = writer();
    recorder.write(item(T0, 'first'));
    recorder.write(item(T0 + 1, 'second'));
    await recorder.flush();
    // The file as a crash would leave it: never closed.
    const { reader, items } = await readAll(recorder.path!);
    expect(items.map((each) => each.data)).toEqual(['first', 'second']);
    expect(reader.cutAfterLine).toBe(3);
    await recorder.close();
  });

  it('reports a damaged line by its number and reads the lines after it', async () => {
    const lines = [
      '{"format":"mdg-recording/1","process":"ingest-1","openedAt":1}',
      JSON.stringify(item(T0, 'a')),
      '{"at":"soon","kind":"hub","data":"x"}',
      '\u0000\u0000garbage',
      '{"at":2,"kind":"telepathy","data":"x"}',
      JSON.stringify(item(T0 + 1, 'b')),
    ];
    const path = join(dir, 'damaged.mdg.gz');
    writeFileSync(path, gzipSync(`${lines.join('\n')}\n`));
    const { reader, items } = await readAll(path);
    expect(items.map((each) => each.data)).toEqual(['a', 'b']);
    expect(reader.problems.map((problem) => problem.line)).toEqual([3, 4, 5]);
    expect(reader.problems[0].message).toMatch(/^no time \(at\)/);
    expect(reader.problems[1].message).toMatch(/^not JSON/);
    expect(reader.problems[2].message).toMatch(/^unknown kind "telepathy"/);
  });

  it('refuses a file of another format, naming it, before any record', async () => {
    const path = join(dir, 'other.mdg.gz');
    writeFileSync(
      path,
      gzipSync('{"format":"tardis/2","process":"x","openedAt":1}\n{"at":1,"kind":"hub","data":"x"}\n'),
    );
    await expect(readAll(path)).rejects.toThrow(
      new RecordingFormatError('unknown recording format "tardis/2": this reader knows mdg-recording/1'),
    );
    writeFileSync(join(dir, 'plain.mdg.gz'), 'not compressed at all');
    const { reader, items } = await readAll(join(dir, 'plain.mdg.gz'));
    expect(items).toEqual([]);
    expect(reader.problems[0].message).toMatch(/^unreadable from here: incorrect header check/);
  });
});
