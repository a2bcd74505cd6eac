import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { LevelUpdate } from '../../src/market/book-update';
import { OrderBook } from '../../src/market/order-book';
import { generateBookStream, RecordedBookStream } from './book-stream';
import { collectGarbage, median } from './book-timing';
import { applyFloatHubFrame, FloatOrderBook } from './decimal-float-book';
import { describeMachine } from './machine';

/**
 * Parse + apply of the exact-decimals comparison (see book-bench.ts) timed in process CPU rather than
 * wall-clock time, so that a loaded shared machine counts only this process's work, and optionally
 * against the hub protocol and Book item codec of an earlier tree in the same process:
 *
 *   node --expose-gc -r ./test/bench/swc-register.js test/bench/decimal-path-cpu.ts
 *   ... --before <tree>        also the reading of <tree> (a copy of the repository at an earlier commit
 *                              whose node_modules resolve, e.g. a symlink to this one's)
 *   ... --levels 20000 --updates 50000 --rounds 15 --padded
 *
 * Both exact contenders apply to this tree's OrderBook, so only the reading differs. Each round runs
 * every contender twice, the order rotating: once right after the previous run ("warm"), once after a
 * full collection ("collected", as book-bench.ts times it: a collection can throw optimised code away,
 * which the next run pays for).
 */

type FrameApplier = (book: OrderBook, frame: string) => void;

interface Reading {
  readonly ExactJsonHubProtocol: new (onMalformed: (error: Error) => void) => {
    parseMessages(input: string, logger: null): { type: number; item?: unknown }[];
  };
  /** The book message of a stream item as the protocol hands it on. */
  readonly bookMessageOf: BookMessageOf;
}

type BookMessageOf = (
  item: unknown,
  receivedAt: number,
  instrument?: string,
) => { updates: readonly LevelUpdate[] };

/** An earlier tree's codec may name that function `decodeBookItem`. */
type Codec = { readonly bookMessageOf?: BookMessageOf; readonly decodeBookItem?: BookMessageOf };

/** A module of the tree at `root`, loaded at run time because the tree is only known then. */
function load<T>(root: string, path: string): T {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(join(root, path)) as T;
}

function exactApplier(root: string, instrument: string): FrameApplier {
  const read = exactReader(root, instrument);
  return (book, frame) => read(book, frame, true);
}

/** The tree's hub protocol and Book item codec over one frame, its updates applied when `apply`. */
function exactReader(
  root: string,
  instrument: string,
): (book: OrderBook, frame: string, apply?: boolean) => void {
  const codec = load<Codec>(root, 'src/upstream/hub/book-item-codec');
  const reading: Reading = {
    ...load<Pick<Reading, 'ExactJsonHubProtocol'>>(root, 'src/upstream/hub/exact-json-hub-protocol'),
    bookMessageOf: (codec.bookMessageOf ?? codec.decodeBookItem)!,
  };
  const protocol = new reading.ExactJsonHubProtocol((error) => {
    throw error;
  });
  return (book, frame, apply = false) => {
    for (const message of protocol.parseMessages(frame, null)) {
      if (message.type !== 2) continue;
      const { updates } = reading.bookMessageOf(message.item, 0, instrument);
      if (apply) for (const update of updates) book.apply(update);
    }
  };
}

interface Contender {
  readonly name: string;
  /** Compared with the float path (the others are parts of a path, shown for their time alone). */
  readonly whole: boolean;
  run(frames: readonly string[]): void;
}

function contenders(stream: RecordedBookStream, before: string | undefined): Contender[] {
  const snapshot: LevelUpdate[] = [
    ...stream.snapshot.bids.map(([price, amount]): LevelUpdate => ({ side: 'bid', price, amount })),
    ...stream.snapshot.asks.map(([price, amount]): LevelUpdate => ({ side: 'ask', price, amount })),
  ];
  const exact = (name: string, apply: FrameApplier): Contender => ({
    name,
    whole: true,
    run: (frames) => {
      const book = new OrderBook({ trackChanges: false });
      book.replace(snapshot, 0, 0);
      const started = process.cpuUsage();
      for (const frame of frames) apply(book, frame);
      cpu.set(name, process.cpuUsage(started));
    },
  });
  const float: Contender = {
    name: 'float',
    whole: true,
    run: (frames) => {
      const book = new FloatOrderBook();
      for (const [price, amount] of stream.snapshot.bids) book.bids.set(Number(price), Number(amount));
      for (const [price, amount] of stream.snapshot.asks) book.asks.set(Number(price), Number(amount));
      const started = process.cpuUsage();
      for (const frame of frames) applyFloatHubFrame(book, frame);
      cpu.set('float', process.cpuUsage(started));
    },
  };
  const here = resolve(__dirname, '../..');
  const all = [float, exact('exact', exactApplier(here, stream.instrument))];
  if (before) all.push(exact('exact before', exactApplier(resolve(before), stream.instrument)));
  const part = (name: string, read: (frame: string) => void): Contender => ({
    name,
    whole: false,
    run: (frames) => {
      const started = process.cpuUsage();
      for (const frame of frames) read(frame);
      cpu.set(name, process.cpuUsage(started));
    },
  });
  // The reading alone, against what the float path's reading is: JSON.parse.
  const noBook = new OrderBook({ trackChanges: false });
  const read = exactReader(here, stream.instrument);
  all.push(
    part('JSON.parse alone', (frame) => JSON.parse(frame.slice(0, -1))),
    part('exact reading alone', (frame) => read(noBook, frame)),
  );
  return all;
}

/** The CPU time of each contender's last run, set inside the run so that book setup is not counted. */
const cpu = new Map<string, NodeJS.CpuUsage>();
const milliseconds = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000;

function main(): void {
  const { values } = parseArgs({
    options: {
      levels: { type: 'string', default: '5000' },
      updates: { type: 'string', default: '50000' },
      rounds: { type: 'string', default: '11' },
      seed: { type: 'string', default: '20261122' },
      padded: { type: 'boolean', default: false },
      before: { type: 'string' },
    },
  });
  const started = new Date();
  const load = loadavg()[0];
  const stream = generateBookStream({
    levelsPerSide: Number(values.levels),
    updates: Number(values.updates),
    seed: Number(values.seed),
  });
  const frames = values.padded ? stream.paddedHubFrames : stream.hubFrames;
  const list = contenders(stream, values.before);
  const times = new Map<string, number[]>();
  const record = (key: string, value: number) => times.set(key, [...(times.get(key) ?? []), value]);
  for (const contender of list) contender.run(frames);
  const rounds = Number(values.rounds);
  for (let round = 0; round < rounds; round++) {
    for (const mode of ['warm', 'collected']) {
      for (let i = 0; i < list.length; i++) {
        const contender = list[(round + i) % list.length];
        if (mode === 'collected') collectGarbage();
        contender.run(frames);
        record(`${mode} ${contender.name}`, milliseconds(cpu.get(contender.name)!));
      }
      for (const contender of list.slice(1).filter((contender) => contender.whole))
        record(
          `${mode} ${contender.name} ratio`,
          times.get(`${mode} float`)!.at(-1)! / times.get(`${mode} ${contender.name}`)!.at(-1)!,
        );
    }
  }
  const lines = [
    `## Exact decimals against floats, parse + apply in process CPU`,
    '',
    `${started.toISOString()}, ${describeMachine()}, load average ${load.toFixed(2)} at the start, ` +
      `${loadavg()[0].toFixed(2)} at the end. ${Number(values.levels).toLocaleString('en')} levels per side, ` +
      `${stream.updateCount.toLocaleString('en')} level updates in ${frames.length.toLocaleString('en')} ` +
      `${values.padded ? 'padded ' : ''}hub frames, ${rounds} rounds after one warm-up, medians.`,
    '',
    '| runs | contender | CPU ms | updates/s | **float/this** (min–max of rounds) |',
    '| --- | --- | ---: | ---: | --- |',
  ];
  for (const mode of ['warm', 'collected'])
    for (const contender of list) {
      const ms = median(times.get(`${mode} ${contender.name}`)!);
      const ratios = times.get(`${mode} ${contender.name} ratio`);
      const ratio = ratios
        ? `**${median(ratios).toFixed(2)}** (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`
        : '';
      const rate = Math.round(stream.updateCount / (ms / 1000)).toLocaleString('en');
      lines.push(`| ${mode} | ${contender.name} | ${ms.toFixed(1)} | ${rate} | ${ratio} |`);
    }
  process.stdout.write(`${lines.join('\n')}\n`);
}

main();
