import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { BookMessage, LevelUpdate } from '../../src/market/book-update';
import { BookSynchronizer } from '../../src/market/book-synchronizer';
import { toFixedScale } from '../../src/market/decimal';
import { EMPTY_STATS } from '../../src/market/market-stats';
import { OrderBook } from '../../src/market/order-book';
import { writeArguments } from '../../src/store/instrument-write-script';
import { StoreKeys } from '../../src/store/keys';
import { InstrumentWrite } from '../../src/store/state-store';
import { bookMessageOf } from '../../src/upstream/hub/book-item-codec';
import { ExactJsonHubProtocol } from '../../src/upstream/hub/exact-json-hub-protocol';
import { CcxtOrderBook, loadCcxtOrderBook } from './book-ccxt';
import { generateBookStream, RecordedBookStream, TextLevel } from './book-stream';
import {
  blockStats,
  BlockStats,
  callTimes,
  collectGarbage,
  Contender,
  formatRate,
  median,
  rateRatio,
  timeRounds,
} from './book-timing';
import { FloatOrderBook } from './decimal-float-book';
import { describeMachine } from './machine';

/**
 * The order book engine against ccxt's, and the cost of exact decimals, on the same seeded delta
 * stream in the same process and run (see book-stream.ts for the stream).
 *
 *   npm run bench -- --only book                        3 rounds over 50,000 updates per book size
 *   npm run bench -- --only book --full                 7 rounds over 300,000 updates
 *   npm run bench -- --only book --section engine       the engine comparison alone (or: decimals)
 *   npm run bench -- --only book --updates 100000 --rounds 5 --seed 7
 *
 * Run with --expose-gc (the runner does) so that every timed run starts from a collected heap.
 */

const SIZES = [5_000, 20_000] as const;
/** The target: our engine applies updates at least this many times as fast as ccxt's. */
const TARGET_RATIO = 3;
/** The limit for any single block of the event loop. */
const BLOCK_LIMIT_MS = 10;
/** The ingest writes each instrument at most every 100 ms; at about 1,000 messages a second that is one write per 100. */
const MESSAGES_PER_WRITE = 100;

const CcxtOrderBookClass = loadCcxtOrderBook();

function levelUpdates(bids: readonly TextLevel[], asks: readonly TextLevel[]): LevelUpdate[] {
  return [
    ...bids.map(([price, amount]): LevelUpdate => ({ side: 'bid', price, amount })),
    ...asks.map(([price, amount]): LevelUpdate => ({ side: 'ask', price, amount })),
  ];
}

const asNumbers = (levels: readonly TextLevel[]): [number, number][] =>
  levels.map(([price, amount]) => [Number(price), Number(amount)]);

/** The stream in the forms each engine takes, converted before any timing. */
interface PreparedStream {
  readonly snapshot: LevelUpdate[];
  readonly deltas: LevelUpdate[][];
  readonly numericSnapshot: { bids: [number, number][]; asks: [number, number][] };
  readonly numericDeltas: { bids: [number, number][]; asks: [number, number][] }[];
}

function prepare(stream: RecordedBookStream): PreparedStream {
  return {
    snapshot: levelUpdates(stream.snapshot.bids, stream.snapshot.asks),
    deltas: stream.deltas.map((delta) => levelUpdates(delta.bids, delta.asks)),
    numericSnapshot: { bids: asNumbers(stream.snapshot.bids), asks: asNumbers(stream.snapshot.asks) },
    numericDeltas: stream.deltas.map((delta) => ({
      bids: asNumbers(delta.bids),
      asks: asNumbers(delta.asks),
    })),
  };
}

function ourBook(prepared: PreparedStream, trackChanges: boolean): OrderBook {
  const book = new OrderBook({ trackChanges });
  book.replace(prepared.snapshot, 0, 0);
  return book;
}

/** As the ingest holds a book: changes recorded, the snapshot's own already taken by the first write. */
function trackedBook(prepared: PreparedStream): OrderBook {
  const book = ourBook(prepared, true);
  book.takeChanges();
  return book;
}

function ccxtBook(prepared: PreparedStream): CcxtOrderBook {
  return new CcxtOrderBookClass({
    bids: prepared.numericSnapshot.bids.map((level) => [...level] as [number, number]),
    asks: prepared.numericSnapshot.asks.map((level) => [...level] as [number, number]),
  });
}

function applyOurs(book: OrderBook, updates: readonly LevelUpdate[]): void {
  for (const update of updates) book.apply(update);
}

function applyCcxt(book: CcxtOrderBook, delta: PreparedStream['numericDeltas'][number]): void {
  for (const [price, amount] of delta.bids) book.bids.store(price, amount);
  for (const [price, amount] of delta.asks) book.asks.store(price, amount);
}

/** Both engines end the stream with the same levels, or the comparison would mean nothing. */
function checkSameBook(stream: RecordedBookStream, prepared: PreparedStream): void {
  const ours = ourBook(prepared, false);
  const theirs = ccxtBook(prepared);
  prepared.deltas.forEach((updates) => applyOurs(ours, updates));
  prepared.numericDeltas.forEach((delta) => applyCcxt(theirs, delta));
  for (const side of ['bid', 'ask'] as const) {
    const expected = ours.levels(side);
    const actual = side === 'bid' ? theirs.bids : theirs.asks;
    if (actual.length !== expected.length)
      throw new Error(`ccxt's ${side}s hold ${actual.length} levels, ours ${expected.length}`);
    expected.forEach(([price, amount], index) => {
      const [theirPrice, theirAmount] = actual[index];
      if (Number(price) !== theirPrice || Number(amount) !== theirAmount)
        throw new Error(
          `${side} level ${index} differs: ours ${price} ${amount}, ccxt ${theirPrice} ${theirAmount}`,
        );
    });
  }
  if (stream.deltas.length !== prepared.deltas.length) throw new Error('the stream was not prepared whole');
}

interface EngineResult {
  readonly levelsPerSide: number;
  readonly updates: number;
  readonly oursPerSecond: number;
  readonly trackedPerSecond: number;
  readonly ccxtPerSecond: number;
  readonly ratio: ReturnType<typeof rateRatio>;
  readonly trackedRatio: ReturnType<typeof rateRatio>;
  /** Each delta message applied alone; `tracked` also takes the changes every MESSAGES_PER_WRITE messages. */
  readonly deltaBlocks: { ours: BlockStats; tracked: BlockStats; ccxt: BlockStats };
  /** Medians over the rounds: a whole snapshot loaded in one call, by `OrderBook.replace` and by ccxt. */
  readonly snapshotAtOnce: { ours: number; ccxt: number };
  readonly resync: ResyncSteps;
}

/**
 * A resync as the ingest goes through it: the snapshot through the synchronizer (the call that brings
 * it, then one `continueLoad` per event-loop turn), then the first write after it. On a loaded machine
 * any call may include time the process waited for a core, so besides the medians over the rounds each
 * call is also given at its fastest of the rounds: what it costs when it runs undisturbed.
 */
interface ResyncSteps {
  /** The load's calls: the longest (median over the rounds), the longest at each call's fastest, their number and sum, ms. */
  readonly longestStep: number;
  readonly longestFastestStep: number;
  readonly steps: number;
  readonly total: number;
  /** `takeChanges()` after the load, what the ingest's write takes of the book: median and fastest, ms. */
  readonly firstWrite: number;
  readonly fastestFirstWrite: number;
  /** The store's script arguments built from that write (`writeArguments`), in the writer's same turn: median and fastest. */
  readonly storeArguments: number;
  readonly fastestStoreArguments: number;
  /** The live book then checked against a REST snapshot of its version (parsed apart, so other strings): median and fastest. */
  readonly restCheck: number;
  readonly fastestRestCheck: number;
}

/** Rounds of the resync at least: one is short, and the fastest of a few needs a few. */
const MIN_RESYNC_ROUNDS = 5;

/** The levels of a book as the exchange sends a snapshot: both sides ascending. */
function exchangeSnapshot(book: OrderBook, instrument: string, version: number): BookMessage {
  const bids = book.levels('bid').reverse();
  const asks = book.levels('ask');
  return { instrument, version, snapshot: true, updates: levelUpdates(bids, asks), time: version };
}

/**
 * Each round: a synchronizer live on the stream's snapshot with its changes taken, then a resync to the
 * book at the end of the stream (the same depth, some levels moved): every call timed alone.
 */
function benchResync(stream: RecordedBookStream, prepared: PreparedStream, rounds: number): ResyncSteps {
  const afterStream = ourBook(prepared, false);
  prepared.deltas.forEach((updates) => applyOurs(afterStream, updates));
  const first = exchangeSnapshot(ourBook(prepared, false), stream.instrument, 1);
  const resync = exchangeSnapshot(afterStream, stream.instrument, 2);
  const keys = new StoreKeys();
  const round = () => {
    const sync = new BookSynchronizer(stream.instrument, 0);
    sync.onStreamMessage(first, 0);
    while (sync.loadPending) sync.continueLoad(0);
    sync.book.takeChanges();
    collectGarbage();
    const steps = [timed(() => sync.onStreamMessage(resync, 0))];
    while (sync.loadPending) steps.push(timed(() => sync.continueLoad(0)));
    if (sync.state !== 'live' || sync.book.version !== 2) throw new Error('the resync did not go live');
    let changes!: ReturnType<OrderBook['takeChanges']>;
    const firstWrite = timed(() => (changes = sync.book.takeChanges()));
    const write: InstrumentWrite = {
      instrument: stream.instrument,
      replace: false,
      head: {
        instrument: stream.instrument,
        bookVersion: 2,
        bookUpdatedAt: 2,
        syncState: 'live',
        stats: EMPTY_STATS,
        tradesRevision: 1,
        tradeFeed: 'live',
        lastEventAt: 2,
        confirmedAt: 2,
      },
      levels: { bids: changes.bids, asks: changes.asks },
    };
    const storeArguments = timed(() => writeArguments(keys, write));
    const rest = JSON.parse(JSON.stringify(resync)) as BookMessage;
    let checked!: ReturnType<BookSynchronizer['onRestSnapshot']>;
    const restCheck = timed(() => (checked = sync.onRestSnapshot(rest, 0)));
    if (checked.reason !== 'verified') throw new Error(`the REST check was ${checked.reason}`);
    return { steps, firstWrite, storeArguments, restCheck };
  };
  round();
  const results = Array.from({ length: Math.max(rounds, MIN_RESYNC_ROUNDS) }, round);
  const stepCount = results[0].steps.length;
  if (results.some((result) => result.steps.length !== stepCount))
    throw new Error('the load took other steps');
  const fastest = Array.from({ length: stepCount }, (_, i) => Math.min(...results.map((r) => r.steps[i])));
  return {
    longestStep: median(results.map((r) => Math.max(...r.steps))),
    longestFastestStep: Math.max(...fastest),
    steps: stepCount,
    total: median(results.map((r) => r.steps.reduce((sum, step) => sum + step, 0))),
    firstWrite: median(results.map((r) => r.firstWrite)),
    fastestFirstWrite: Math.min(...results.map((r) => r.firstWrite)),
    storeArguments: median(results.map((r) => r.storeArguments)),
    fastestStoreArguments: Math.min(...results.map((r) => r.storeArguments)),
    restCheck: median(results.map((r) => r.restCheck)),
    fastestRestCheck: Math.min(...results.map((r) => r.restCheck)),
  };
}

/** Milliseconds of one call. */
function timed(work: () => unknown): number {
  const started = performance.now();
  work();
  return performance.now() - started;
}

function benchEngines(stream: RecordedBookStream, rounds: number): EngineResult {
  const prepared = prepare(stream);
  checkSameBook(stream, prepared);
  const ours: Contender<OrderBook> = {
    name: 'ours',
    prepare: () => ourBook(prepared, false),
    run: (book) => {
      for (const updates of prepared.deltas) applyOurs(book, updates);
    },
  };
  // As the ingest runs it: changes recorded, and taken by the writer once per MESSAGES_PER_WRITE.
  const tracked: Contender<OrderBook> = {
    name: 'tracked',
    prepare: () => trackedBook(prepared),
    run: (book) => {
      prepared.deltas.forEach((updates, index) => {
        applyOurs(book, updates);
        if (index % MESSAGES_PER_WRITE === MESSAGES_PER_WRITE - 1) book.takeChanges();
      });
    },
  };
  const ccxt: Contender<CcxtOrderBook> = {
    name: 'ccxt',
    prepare: () => ccxtBook(prepared),
    run: (book) => {
      for (const delta of prepared.numericDeltas) applyCcxt(book, delta);
    },
  };
  const times = timeRounds([ours, tracked, ccxt] as Contender<unknown>[], rounds);
  const perSecond = (name: string) => stream.updateCount / (median(times.times.get(name)!) / 1000);

  const oursAlone = ourBook(prepared, false);
  const trackedAlone = trackedBook(prepared);
  const ccxtAlone = ccxtBook(prepared);
  const deltaBlocks = {
    ours: blockStats(
      callTimes(prepared.deltas.length, (i) => applyOurs(oursAlone, prepared.deltas[i])),
      BLOCK_LIMIT_MS,
    ),
    tracked: blockStats(
      callTimes(prepared.deltas.length, (i) => {
        applyOurs(trackedAlone, prepared.deltas[i]);
        if (i % MESSAGES_PER_WRITE === MESSAGES_PER_WRITE - 1) trackedAlone.takeChanges();
      }),
      BLOCK_LIMIT_MS,
    ),
    ccxt: blockStats(
      callTimes(prepared.numericDeltas.length, (i) => applyCcxt(ccxtAlone, prepared.numericDeltas[i])),
      BLOCK_LIMIT_MS,
    ),
  };
  const snapshotAtOnce = {
    ours: median(callTimes(rounds, () => ourBook(prepared, true))),
    ccxt: median(callTimes(rounds, () => ccxtBook(prepared))),
  };
  return {
    levelsPerSide: stream.levelsPerSide,
    updates: stream.updateCount,
    oursPerSecond: perSecond('ours'),
    trackedPerSecond: perSecond('tracked'),
    ccxtPerSecond: perSecond('ccxt'),
    ratio: rateRatio(times, 'ours', 'ccxt'),
    trackedRatio: rateRatio(times, 'tracked', 'ccxt'),
    deltaBlocks,
    snapshotAtOnce,
    resync: benchResync(stream, prepared, rounds),
  };
}

/** How much formatting each timed run does: full-depth books, and messages of the whole path. */
interface DecimalWork {
  readonly formats: number;
  readonly pathMessages: number;
}

interface DecimalResult {
  readonly levelsPerSide: number;
  readonly exactPerSecond: number;
  readonly paddedPerSecond: number;
  readonly floatPerSecond: number;
  readonly exactRatio: ReturnType<typeof rateRatio>;
  readonly paddedRatio: ReturnType<typeof rateRatio>;
  readonly formatExactPerSecond: number;
  readonly formatFloatPerSecond: number;
  readonly formatRatio: ReturnType<typeof rateRatio>;
  readonly pathExactPerSecond: number;
  readonly pathFloatPerSecond: number;
  readonly pathRatio: ReturnType<typeof rateRatio>;
}

function floatBook(prepared: PreparedStream): FloatOrderBook {
  const book = new FloatOrderBook();
  for (const [price, amount] of prepared.numericSnapshot.bids) book.bids.set(price, amount);
  for (const [price, amount] of prepared.numericSnapshot.asks) book.asks.set(price, amount);
  return book;
}

/** What a float gateway reads from a frame: JSON.parse, and a finite number for every price and amount. */
function applyFloatFrame(book: FloatOrderBook, frame: string): void {
  const message = JSON.parse(frame.slice(0, -1)) as {
    item: { bids: { price: unknown; amount: unknown }[]; asks: { price: unknown; amount: unknown }[] };
  };
  for (const [entries, side] of [
    [message.item.bids, book.bids],
    [message.item.asks, book.asks],
  ] as const) {
    for (const { price, amount } of entries) {
      if (typeof price !== 'number' || typeof amount !== 'number' || !(price > 0) || !(amount >= 0))
        throw new Error('malformed level');
      side.set(price, amount);
    }
  }
}

/** The gateway's own ingest path: the hub protocol's exact parse, the Book item codec, the book. */
function exactFrameApplier(instrument: string): (book: OrderBook, frame: string) => void {
  const protocol = new ExactJsonHubProtocol((error) => {
    throw error;
  });
  return (book, frame) => {
    for (const message of protocol.parseMessages(frame, null)) {
      if (message.type !== 2) continue;
      const decoded = bookMessageOf(message.item, 0, instrument);
      for (const update of decoded.updates) book.apply(update);
    }
  };
}

/** Full depth, both sides, `[price, amount]` at the market's scales, as the order book endpoint writes it. */
function formatExact(book: OrderBook, priceScale: number, amountScale: number): string {
  const side = (levels: readonly (readonly [string, string])[]) =>
    levels.map(([price, amount]) => [toFixedScale(price, priceScale), toFixedScale(amount, amountScale)]);
  return JSON.stringify({ bids: side(book.levels('bid')), asks: side(book.levels('ask')) });
}

function formatFloat(book: FloatOrderBook, priceScale: number, amountScale: number): string {
  return JSON.stringify({
    bids: book.bids.format(Infinity, priceScale, amountScale),
    asks: book.asks.format(Infinity, priceScale, amountScale),
  });
}

function benchDecimals(stream: RecordedBookStream, rounds: number, work: DecimalWork): DecimalResult {
  const prepared = prepare(stream);
  const { priceScale, amountScale } = stream;
  const applyExact = exactFrameApplier(stream.instrument);
  const exactBook = () => ourBook(prepared, false);
  // The two books must agree, to the formatted text.
  const checkExact = exactBook();
  const checkFloat = floatBook(prepared);
  stream.hubFrames.forEach((frame) => applyExact(checkExact, frame));
  stream.hubFrames.forEach((frame) => applyFloatFrame(checkFloat, frame));
  if (formatExact(checkExact, priceScale, amountScale) !== formatFloat(checkFloat, priceScale, amountScale))
    throw new Error('the exact and the float book disagree');

  const parseApply = timeRounds(
    [
      {
        name: 'exact',
        prepare: exactBook,
        run: (book: OrderBook) => stream.hubFrames.forEach((f) => applyExact(book, f)),
      },
      {
        name: 'padded',
        prepare: exactBook,
        run: (book: OrderBook) => stream.paddedHubFrames.forEach((f) => applyExact(book, f)),
      },
      {
        name: 'float',
        prepare: () => floatBook(prepared),
        run: (book: FloatOrderBook) => stream.hubFrames.forEach((f) => applyFloatFrame(book, f)),
      },
    ] as Contender<unknown>[],
    rounds,
  );
  const { formats } = work;
  const pathFrames = stream.hubFrames.slice(0, work.pathMessages);
  const format = timeRounds(
    [
      {
        name: 'exact',
        prepare: () => checkExact,
        run: (book: OrderBook) => {
          for (let i = 0; i < formats; i++) formatExact(book, priceScale, amountScale);
        },
      },
      {
        name: 'float',
        prepare: () => checkFloat,
        run: (book: FloatOrderBook) => {
          for (let i = 0; i < formats; i++) formatFloat(book, priceScale, amountScale);
        },
      },
    ] as Contender<unknown>[],
    rounds,
  );
  const path = timeRounds(
    [
      {
        name: 'exact',
        prepare: exactBook,
        run: (book: OrderBook) =>
          pathFrames.forEach((frame, index) => {
            applyExact(book, frame);
            if (index % MESSAGES_PER_WRITE === 0) formatExact(book, priceScale, amountScale);
          }),
      },
      {
        name: 'float',
        prepare: () => floatBook(prepared),
        run: (book: FloatOrderBook) =>
          pathFrames.forEach((frame, index) => {
            applyFloatFrame(book, frame);
            if (index % MESSAGES_PER_WRITE === 0) formatFloat(book, priceScale, amountScale);
          }),
      },
    ] as Contender<unknown>[],
    rounds,
  );
  const rate = (times: typeof parseApply, name: string, work: number) =>
    work / (median(times.times.get(name)!) / 1000);
  return {
    levelsPerSide: stream.levelsPerSide,
    exactPerSecond: rate(parseApply, 'exact', stream.updateCount),
    paddedPerSecond: rate(parseApply, 'padded', stream.updateCount),
    floatPerSecond: rate(parseApply, 'float', stream.updateCount),
    exactRatio: rateRatio(parseApply, 'exact', 'float'),
    paddedRatio: rateRatio(parseApply, 'padded', 'float'),
    formatExactPerSecond: rate(format, 'exact', formats),
    formatFloatPerSecond: rate(format, 'float', formats),
    formatRatio: rateRatio(format, 'exact', 'float'),
    pathExactPerSecond: rate(path, 'exact', pathFrames.length),
    pathFloatPerSecond: rate(path, 'float', pathFrames.length),
    pathRatio: rateRatio(path, 'exact', 'float'),
  };
}

const ms = (value: number) => value.toFixed(value < 1 ? 3 : 1);
const ratio = ({ median: mid, min, max }: ReturnType<typeof rateRatio>) =>
  `**${mid.toFixed(2)}** (${min.toFixed(2)}–${max.toFixed(2)})`;

function engineTable(results: readonly EngineResult[]): string[] {
  return [
    '| levels per side | updates | ours updates/s | ccxt updates/s | **ours/ccxt** (min–max of rounds) | ours with change tracking updates/s | **tracked/ccxt** |',
    '| ---: | ---: | ---: | ---: | --- | ---: | --- |',
    ...results
      .map((r) =>
        [
          r.levelsPerSide.toLocaleString('en'),
          r.updates.toLocaleString('en'),
          formatRate(r.oursPerSecond),
          formatRate(r.ccxtPerSecond),
          `${ratio(r.ratio)}${r.ratio.median >= TARGET_RATIO ? '' : ' below target'}`,
          formatRate(r.trackedPerSecond),
          ratio(r.trackedRatio),
        ].join(' | '),
      )
      .map((row) => `| ${row} |`),
  ];
}

function blockTable(results: readonly EngineResult[]): string[] {
  const blocks = (stats: BlockStats) => `${ms(stats.p999)} / ${ms(stats.max)} / ${stats.over}`;
  return [
    `| levels per side | one delta message, ours: p99.9 / max ms / calls over ${BLOCK_LIMIT_MS} ms | ours with change tracking | ccxt | resync snapshot in slices: longest step, median / **at each step's fastest** / steps / sum ms | first write after it: median / **fastest** ms | its store arguments: median / fastest ms | REST check of the live book: median / fastest ms | snapshot in one call: ours / ccxt ms |`,
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...results
      .map((r) =>
        [
          r.levelsPerSide.toLocaleString('en'),
          blocks(r.deltaBlocks.ours),
          blocks(r.deltaBlocks.tracked),
          blocks(r.deltaBlocks.ccxt),
          `${ms(r.resync.longestStep)} / **${ms(r.resync.longestFastestStep)}** / ${r.resync.steps} / ${ms(r.resync.total)}`,
          `${ms(r.resync.firstWrite)} / **${ms(r.resync.fastestFirstWrite)}**`,
          `${ms(r.resync.storeArguments)} / ${ms(r.resync.fastestStoreArguments)}`,
          `${ms(r.resync.restCheck)} / ${ms(r.resync.fastestRestCheck)}`,
          `${ms(r.snapshotAtOnce.ours)} / ${ms(r.snapshotAtOnce.ccxt)}`,
        ].join(' | '),
      )
      .map((row) => `| ${row} |`),
  ];
}

function decimalTable(results: readonly DecimalResult[]): string[] {
  return [
    '| levels per side | parse + apply updates/s exact / float | **exact/float** | padded decimals updates/s | **padded/float** | full-depth format books/s exact / float | **exact/float** | whole path messages/s exact / float | **exact/float** |',
    '| ---: | ---: | --- | ---: | --- | ---: | --- | ---: | --- |',
    ...results
      .map((r) =>
        [
          r.levelsPerSide.toLocaleString('en'),
          `${formatRate(r.exactPerSecond)} / ${formatRate(r.floatPerSecond)}`,
          ratio(r.exactRatio),
          formatRate(r.paddedPerSecond),
          ratio(r.paddedRatio),
          `${r.formatExactPerSecond.toFixed(1)} / ${r.formatFloatPerSecond.toFixed(1)}`,
          ratio(r.formatRatio),
          `${formatRate(r.pathExactPerSecond)} / ${formatRate(r.pathFloatPerSecond)}`,
          ratio(r.pathRatio),
        ].join(' | '),
      )
      .map((row) => `| ${row} |`),
  ];
}

function main(): void {
  const { values } = parseArgs({
    options: {
      full: { type: 'boolean', default: false },
      rounds: { type: 'string' },
      updates: { type: 'string' },
      seed: { type: 'string', default: '20261122' },
      section: { type: 'string' },
    },
  });
  const rounds = Number(values.rounds ?? (values.full ? 7 : 3));
  const updates = Number(values.updates ?? (values.full ? 300_000 : 50_000));
  const seed = Number(values.seed);
  const sections = values.section ? values.section.split(',') : ['engine', 'decimals'];
  const started = new Date();
  const load = loadavg()[0];
  const engines: EngineResult[] = [];
  const decimals: DecimalResult[] = [];
  for (const levelsPerSide of SIZES) {
    const stream = generateBookStream({ levelsPerSide, updates, seed });
    if (sections.includes('engine')) engines.push(benchEngines(stream, rounds));
    if (sections.includes('decimals'))
      decimals.push(
        benchDecimals(
          stream,
          rounds,
          values.full ? { formats: 20, pathMessages: 10_000 } : { formats: 5, pathMessages: 2_000 },
        ),
      );
  }
  const lines = [
    `## Order book engine and exact decimals`,
    '',
    `${started.toISOString()}, ${describeMachine()}, load average ${load.toFixed(2)} at the start, ` +
      `${loadavg()[0].toFixed(2)} at the end.`,
    `Seed ${seed}, ${updates.toLocaleString('en')} level updates per book size, ${rounds} timed rounds after one warm-up, ` +
      "the contenders taking turns; rates are medians of the rounds, ratios the median of the rounds' ratios.",
    '',
  ];
  if (engines.length > 0) {
    lines.push(
      `### Order book engine against ccxt's OrderBook (target ours/ccxt >= ${TARGET_RATIO}, no block over ${BLOCK_LIMIT_MS} ms)`,
      '',
      ...engineTable(engines),
      '',
      `Event-loop blocks: each delta message applied and timed alone (the tracked book also hands its changes ` +
        `to a writer every ${MESSAGES_PER_WRITE} messages). A resync: a synchronizer live on the stream's snapshot ` +
        `gets the book at the end of the stream as a new snapshot (both sides ascending, as the exchange sends it); ` +
        `each call of its load timed alone (the one that brings it, then one continueLoad per turn), then the ` +
        `first write's takeChanges, the store's script arguments built from it, and a REST check of the live book ` +
        `against the same levels; medians over ` +
        `${MIN_RESYNC_ROUNDS} rounds or more, and each call at its fastest of the rounds (the same snapshot takes the same steps). ` +
        `For comparison, a snapshot loaded in one call. ` +
        `On a shared machine the longest calls include time the process was not running at all.`,
      '',
      ...blockTable(engines),
      '',
    );
  }
  if (decimals.length > 0) {
    lines.push(
      '### Exact decimals against floats (hub frames parsed, applied, full depth formatted)',
      '',
      ...decimalTable(decimals),
      '',
      'Parse + apply: every frame through the hub protocol, the Book item codec and OrderBook, against JSON.parse ' +
        'and the same book design on floats. Padded decimals: the same frames with every amount at 28 decimals, as C# ' +
        'decimals print. Format: the full depth of both sides as `[price, amount]` text at the market scales. Whole ' +
        `path: the stream's first messages applied, with one full-depth format every ${MESSAGES_PER_WRITE} messages.`,
      '',
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

main();
