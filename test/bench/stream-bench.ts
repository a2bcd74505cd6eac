import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, setPriority, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { bookChannelName, tradesChannelName } from '../../src/market/stream/stream-channel';
import { parseMetrics } from '../support/metrics-text';
import {
  leastHeapUsedBytes,
  MainProcess,
  percentile,
  positive,
  processCpuSeconds,
  progress,
  sleep,
  startSandboxProcess,
} from './bench-process';
import {
  deploy,
  Deployment,
  emittedTops,
  openInstruments,
  postJson,
  setBurst,
  untilQuiet,
  EXCHANGE_NICENESS,
  IDLE_CORES,
} from './burst-stack';
import { monotonicMicros, profileTables, ProfileWindow, readCpuProfile } from './cpu-profile';
import { lagsFrom, versionLags } from './freshness-matching';
import { describeMachine } from './machine';
import { IpcChild } from './ipc-child';
import type { ReaderCommand, ReaderReply, RecordedReading } from './stream-readers';

/**
 * The live stream under a burst: the sandbox exchange (its own process) drives book updates over its
 * markets, an ingest replica and an API replica on a private redis-server follow them, and readers (a
 * process of their own) hold `/stream` connections spread over the channels: each reader one book
 * channel and one trades channel, one in `TICKER_EVERY` also the ticker.
 *
 * - Latency, event to reader: the sandbox logs every state of the watched books' top with its event
 *   time and book version (`/sandbox/top-log`); each state's lag is the first receipt, by the first
 *   reader of its book, of a message whose `seq` is that version or a later one. (Matching the
 *   reader's top instead would leave a state unseen while the top it returned to within one write is
 *   shown: seconds at a few updates a book a second.) Every book message of every reader gives
 *   receipt minus `ts` (its newest event), every trade of the first reader of each trades channel
 *   receipt minus the trade's time.
 * - Cost: frames delivered per second of the API replica's CPU, against a bare `ws` server sending the
 *   frames the readers received (each channel's, as its first reader got them, at the same times) to
 *   the same readers, measured alone afterwards.
 * - Memory per reader: the API replica's RSS and heap (the least of ten samples over 2 s) before the
 *   readers connect and after they have their snapshots, with the flow stopped.
 *
 *   node -r ./test/bench/swc-register.js test/bench/stream-bench.ts          about 70 s (a 5 s phase)
 *   ... stream-bench.ts --full                                                about 2 min (a 20 s phase)
 *   ... stream-bench.ts --readers 200 --rate 5000                             a smaller load
 *
 * Needs `npm run build` first (it runs dist/main.js).
 */

/** The targets. */
const TARGET_LAG_P99_MS = 100;
const TARGET_COST_RATIO = 0.8;

const TICKER_EVERY = 20;
/** After the readers subscribed, before memory is read: their snapshots are on their way. */
const SNAPSHOTS_SETTLE_MS = 3_000;
/** Heap samples of a memory reading, and the time between them. */
const MEMORY_SAMPLES = 10;
const MEMORY_SAMPLE_GAP_MS = 200;
/** After the burst stops, before recording stops: the last messages are on their way. */
const DRAIN_MS = 1_500;

interface Settings {
  readonly markets: number;
  readonly updatesPerSecond: number;
  readonly readers: number;
  readonly watchedBooks: number;
  readonly phaseSeconds: number;
  readonly settleSeconds: number;
  /** The exchange at a lower CPU priority (nice 10), as in the freshness benchmark: in production it runs elsewhere. */
  readonly gatewayFirst: boolean;
  /** Where the gateway's processes write CPU profiles; the API replica's is summed up in the report. */
  readonly profileDir?: string;
}

interface Memory {
  readonly rssBytes: number;
  readonly heapBytes: number;
}

interface StreamResult {
  readonly settings: Settings;
  readonly channels: number;
  readonly subscriptions: number;
  readonly idle: Memory;
  readonly connected: Memory;
  readonly gateway: RecordedReading;
  readonly bare: RecordedReading;
  readonly cores: {
    readonly api: number;
    readonly ingest: number;
    readonly redis: number;
    readonly sandbox: number;
    readonly readers: number;
    readonly bare: number;
  };
  /** CPU seconds of the API replica and of the bare server over their recordings. */
  readonly apiCpuSeconds: number;
  readonly bareCpuSeconds: number;
  /** Each state of a watched book's top, event time to the reader's message of its version. */
  readonly topLags: number[];
  /** The same states, event time to the store's change notice: the ingest's part of the lag. */
  readonly storeLags: number[];
  /** The same states, the store's change notice to the reader: the stream's part of the lag. */
  readonly streamLags: number[];
  readonly unseenTops: number;
  /** Book versions the ingest applied per second, over every market, while recording. */
  readonly appliedPerSecond: number;
  /** The API replica's CPU under the same burst with no reader: following the store for its HTTP API. */
  readonly apiCoresWithoutReaders: number;
  /** The API replica's event-loop delay while recording, p50 / p99 / max in ms. */
  readonly apiEventLoop: readonly number[];
  /** With `--cpu-prof-dir`: where the API replica's CPU went while recording. */
  readonly apiProfile?: readonly string[];
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      full: { type: 'boolean', default: false },
      markets: { type: 'string', default: '200' },
      rate: { type: 'string', default: '20000' },
      readers: { type: 'string', default: '1000' },
      watched: { type: 'string', default: '20' },
      seconds: { type: 'string' },
      'cpu-prof-dir': { type: 'string' },
      'gateway-first': { type: 'boolean', default: false },
    },
  });
  const settings: Settings = {
    markets: positive(values.markets, 'markets'),
    updatesPerSecond: positive(values.rate, 'rate'),
    readers: positive(values.readers, 'readers'),
    watchedBooks: positive(values.watched, 'watched'),
    phaseSeconds: positive(values.seconds ?? (values.full ? '20' : '5'), 'seconds'),
    settleSeconds: values.full ? 5 : 3,
    gatewayFirst: values['gateway-first'],
    ...(values['cpu-prof-dir'] ? { profileDir: resolve(values['cpu-prof-dir']) } : {}),
  };
  const started = new Date();
  const loadAtStart = loadavg()[0];
  const result = await runStream(settings);
  process.stdout.write(`${report(result, started, loadAtStart, process.argv.slice(2)).join('\n')}\n`);
}

async function runStream(settings: Settings): Promise<StreamResult> {
  const scratch = mkdtempSync(join(tmpdir(), 'stream-bench-'));
  const framesFile = join(scratch, 'frames.json');
  progress(`stream: sandbox with ${settings.markets} markets, quiet until the burst`);
  const sandbox = await startSandboxProcess({
    SANDBOX_MARKET_COUNT: String(settings.markets),
    SANDBOX_FLOW_RATE: '0',
    SANDBOX_HISTORY_HOURS: '1',
  });
  let deployment: Deployment | undefined;
  let readers: IpcChild<ReaderCommand, ReaderReply> | undefined;
  let bare: IpcChild<BareCommand, BareReply> | undefined;
  let recorded: ProfileWindow | undefined;
  let apiPid = -1;
  let result: StreamResult;
  try {
    deployment = await deploy(
      {
        topology: 'split',
        ingestNodeOptions: [],
        profileDir: settings.profileDir,
        apiTuning: { streamMaxConnectionsPerAddress: settings.readers + 10 },
      },
      sandbox.url,
    );
    const { api, apiUrl } = deployment;
    // Raising the niceness of a process of one's own user needs no privilege.
    if (settings.gatewayFirst) setPriority(sandbox.process.pid, EXCHANGE_NICENESS);
    const instruments = (await openInstruments(apiUrl)).map((name) => name.toLowerCase());
    if (instruments.length < settings.watchedBooks)
      throw new Error(`only ${instruments.length} open markets`);
    const plans = readerPlans(instruments, settings.readers);
    const watched = instruments.slice(0, settings.watchedBooks);
    progress('stream: waiting for the gateway to finish starting up (its CPU to go quiet)');
    await untilQuiet(deployment.gateway, IDLE_CORES, 60_000);

    progress(`stream: ${settings.phaseSeconds} s of the burst without readers (the API replica's own work)`);
    await setBurst(sandbox.url, settings.updatesPerSecond);
    await sleep(settings.settleSeconds * 1000);
    const apiBefore = api!.cpuSeconds();
    await sleep(settings.phaseSeconds * 1000);
    const apiCoresWithoutReaders = (api!.cpuSeconds() - apiBefore) / settings.phaseSeconds;
    await setBurst(sandbox.url, 0);
    await sleep(DRAIN_MS);

    readers = IpcChild.fork('stream-readers.ts');
    const idle = await memoryOf(api!, apiUrl);
    progress(`stream: ${settings.readers} readers connecting`);
    const connected = await readers.request({ op: 'connect', url: apiUrl, plans }, 'connected');
    await sleep(SNAPSHOTS_SETTLE_MS);
    const withReaders = await memoryOf(api!, apiUrl);

    progress(
      `stream: burst of ${settings.updatesPerSecond} book updates/s; ${settings.settleSeconds} s to settle`,
    );
    await setBurst(sandbox.url, settings.updatesPerSecond);
    await sleep(settings.settleSeconds * 1000);
    const storedVersions = await deployment.recordStoredVersions!(watched);
    await postJson(`${sandbox.url}/sandbox/top-log`, { instruments: watched });
    // The first second of the log gives the matching its history: what the readers already held.
    await sleep(1_000);
    const phaseStart = Date.now();
    const cpu = cpuReader(deployment, sandbox.process.pid, readers.pid);
    const before = await cpu();
    const versionsBefore = await bookVersions(deployment.ingestUrl);
    // Each read of the metrics starts the event-loop delay histogram over.
    await eventLoopDelay(apiUrl);
    await readers.request({ op: 'record', watchedBooks: watched.map(bookChannelName) }, 'recording');
    const recordedFrom = monotonicMicros();
    progress(`stream: ${settings.phaseSeconds} s recorded`);
    await sleep(settings.phaseSeconds * 1000);
    await setBurst(sandbox.url, 0);
    await sleep(DRAIN_MS);
    const gateway = (await readers.request({ op: 'stop', framesFile }, 'stopped')).result;
    const after = await cpu();
    recorded = { start: recordedFrom, end: monotonicMicros() };
    apiPid = api!.pid;
    const applied = (await bookVersions(deployment.ingestUrl)) - versionsBefore;
    const apiEventLoop = await eventLoopDelay(apiUrl);
    const seconds = gateway.seconds;
    const topLagsOf: number[] = [];
    const storeLagsOf: number[] = [];
    const streamLagsOf: number[] = [];
    let unseenTops = 0;
    for (const instrument of watched) {
      const emitted = await emittedTops(sandbox.url, instrument);
      const matched = versionLags(emitted, gateway.versions[bookChannelName(instrument)] ?? []);
      topLagsOf.push(...lagsFrom(emitted, matched.lags, phaseStart));
      unseenTops += matched.unseen;
      const stored = versionLags(emitted, storedVersions.get(instrument) ?? []);
      storeLagsOf.push(...lagsFrom(emitted, stored.lags, phaseStart));
      // Both lists time the states from the first on, so that index i is the same state in each.
      const added = matched.lags.slice(0, stored.lags.length).map((lag, i) => lag - stored.lags[i]);
      streamLagsOf.push(...lagsFrom(emitted, added, phaseStart));
    }
    await readers.request({ op: 'close' }, 'closed');

    progress('stream: the bare ws server sends the same frames to the same readers');
    bare = IpcChild.fork('bare-stream-process.ts');
    const { url: bareUrl } = await bare.request({ op: 'listen' }, 'listening');
    await readers.request({ op: 'connect', url: bareUrl, plans }, 'connected');
    await readers.request({ op: 'record', watchedBooks: [] }, 'recording');
    const bareBefore = processCpuSeconds(bare.pid);
    await bare.request({ op: 'replay', framesFile }, 'replayed');
    const bareCpuSeconds = processCpuSeconds(bare.pid) - bareBefore;
    await sleep(DRAIN_MS);
    const bareReading = (
      await readers.request({ op: 'stop', framesFile: join(scratch, 'bare.json') }, 'stopped')
    ).result;
    const perSecond = (from: number, to: number): number => (to - from) / seconds;
    result = {
      settings,
      channels: new Set(plans.flat()).size,
      subscriptions: connected.subscriptions,
      idle,
      connected: withReaders,
      gateway,
      bare: bareReading,
      cores: {
        api: perSecond(before.api, after.api),
        ingest: perSecond(before.ingest, after.ingest),
        redis: perSecond(before.redis, after.redis),
        sandbox: perSecond(before.sandbox, after.sandbox),
        readers: perSecond(before.readers, after.readers),
        bare: bareCpuSeconds / bareReading.seconds,
      },
      apiCpuSeconds: after.api - before.api,
      bareCpuSeconds,
      topLags: topLagsOf,
      storeLags: storeLagsOf,
      streamLags: streamLagsOf,
      unseenTops,
      appliedPerSecond: applied / seconds,
      apiCoresWithoutReaders,
      apiEventLoop,
    };
  } finally {
    await readers?.close();
    await bare?.close();
    await deployment?.stop();
    await sandbox.process.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
  // Each process writes its profile as it exits.
  if (!settings.profileDir || !recorded) return result;
  return { ...result, apiProfile: profileTables(readCpuProfile(settings.profileDir, apiPid), recorded) };
}

/** Reader i: the book of market i, the trades of another market, and one in TICKER_EVERY the ticker. */
function readerPlans(instruments: readonly string[], readers: number): string[][] {
  const count = instruments.length;
  return Array.from({ length: readers }, (_, i) => [
    bookChannelName(instruments[i % count]),
    tradesChannelName(instruments[(i * 7 + 3) % count]),
    ...(i % TICKER_EVERY === 0 ? ['ticker'] : []),
  ]);
}

function cpuReader(
  deployment: Deployment,
  sandboxPid: number,
  readersPid: number,
): () => Promise<{ api: number; ingest: number; redis: number; sandbox: number; readers: number }> {
  return async () => ({
    api: deployment.api!.cpuSeconds(),
    ingest: deployment.gateway.cpuSeconds(),
    redis: (await deployment.redisCpuSeconds?.()) ?? Number.NaN,
    sandbox: processCpuSeconds(sandboxPid),
    readers: processCpuSeconds(readersPid),
  });
}

/** The event-loop delay p50, p99 and max in ms since the last read, from a process's metrics. */
async function eventLoopDelay(url: string): Promise<number[]> {
  const samples = parseMetrics(await (await fetch(`${url}/metrics`)).text());
  return ['p50', 'p99', 'max'].map(
    (name) =>
      1000 *
      (samples.find((sample) => sample.name === `mdg_nodejs_eventloop_lag_${name}_seconds`)?.value ?? NaN),
  );
}

/** The sum of every market's book version, from the ingest's metrics. */
async function bookVersions(ingestUrl: string): Promise<number> {
  const samples = parseMetrics(await (await fetch(`${ingestUrl}/metrics`)).text());
  return samples
    .filter((sample) => sample.name === 'mdg_book_version')
    .reduce((sum, sample) => sum + sample.value, 0);
}

async function memoryOf(api: MainProcess, url: string): Promise<Memory> {
  const heapBytes = await leastHeapUsedBytes(url, MEMORY_SAMPLES, MEMORY_SAMPLE_GAP_MS);
  return { rssBytes: api.rssBytes(), heapBytes };
}

type BareCommand = { readonly op: 'listen' } | { readonly op: 'replay'; readonly framesFile: string };
type BareReply =
  { readonly op: 'listening'; readonly url: string } | { readonly op: 'replayed'; readonly frames: number };

/** A benchmark process driven by request and reply over IPC. */
function report(result: StreamResult, started: Date, loadAtStart: number, args: readonly string[]): string[] {
  const { settings, gateway, bare, cores } = result;
  const ms = (v: number): string => (Number.isNaN(v) ? 'n/a' : `${Math.round(v)} ms`);
  const lags = (values: readonly number[]): string =>
    `${ms(percentile(values, 50))} / ${ms(percentile(values, 99))} / ${ms(percentile(values, 100))}`;
  const gatewayRate = gateway.frames / result.apiCpuSeconds;
  const bareRate = bare.frames / result.bareCpuSeconds;
  const costRatio = gatewayRate / bareRate;
  // The API replica's CPU for the stream alone: what it spent beyond following the burst for its HTTP API.
  const streamRate =
    gateway.frames / (result.apiCpuSeconds - result.apiCoresWithoutReaders * gateway.seconds);
  const streamRatio = streamRate / bareRate;
  const topP99 = percentile(result.topLags, 99);
  const costCell = (ratio: number): string =>
    `**${ratio.toFixed(2)}** of bare, ${(ratio / TARGET_COST_RATIO).toFixed(2)} of the target${ratio >= TARGET_COST_RATIO ? '' : ' (missed)'}`;
  const perReader = (field: keyof Memory): string =>
    `${((result.connected[field] - result.idle[field]) / settings.readers / 1024).toFixed(1)} KiB`;
  return [
    `Run ${started.toISOString()}, ${Math.round((Date.now() - started.getTime()) / 1000)} s`,
    `Machine: ${describeMachine()}`,
    `Command: node -r ./test/bench/swc-register.js test/bench/stream-bench.ts${args.length ? ` ${args.join(' ')}` : ''}`,
    `Load average (1 min) at start and end: ${loadAtStart.toFixed(2)}, ${loadavg()[0].toFixed(2)}`,
    'Gateway: an ingest replica and an API replica (each node dist/main.js) on a private redis-server; ' +
      'the sandbox, the readers and the bare server each in a process of their own, all on this machine',
    `Load: ${settings.updatesPerSecond} book updates/s asked (${Math.round(result.appliedPerSecond)} applied) over ${settings.markets} markets for ${settings.phaseSeconds} s; ` +
      `${settings.readers} readers, ${result.subscriptions} subscriptions over ${result.channels} channels` +
      (settings.gatewayFirst ? '; the exchange at nice 10 (--gateway-first)' : ''),
    '',
    '| figure | gateway | bare `ws` | target | measured / target |',
    '| --- | ---: | ---: | ---: | --- |',
    `| book top, event to reader's message, p50 / p99 / max (${result.topLags.length} states of ${settings.watchedBooks} books, ${result.unseenTops} never shown) | ${lags(result.topLags)} | | p99 ${TARGET_LAG_P99_MS} ms | **${(topP99 / TARGET_LAG_P99_MS).toFixed(2)}** of the target${topP99 <= TARGET_LAG_P99_MS ? '' : ' (missed)'} |`,
    `| of it: to the store's change notice (the ingest), p50 / p99 / max | ${lags(result.storeLags)} | | | |`,
    `| of it: from the store's change notice to the reader (the stream), p50 / p99 / max | ${lags(result.streamLags)} | | | |`,
    `| book message \`ts\` to receipt, every reader, p50 / p99 / max (${gateway.bookTsLags.length} messages) | ${lags(gateway.bookTsLags)} | | | |`,
    `| trade, event to reader, p50 / p99 / max (${gateway.tradeLags.length} trades) | ${lags(gateway.tradeLags)} | | | |`,
    `| API replica event-loop delay p50 / p99 / max | ${result.apiEventLoop.map(ms).join(' / ')} | | | |`,
    `| frames by type | ${Object.entries(gateway.types)
      .map(([type, count]) => `${type} ${count}`)
      .join(', ')} | ${Object.entries(bare.types)
      .map(([type, count]) => `${type} ${count}`)
      .join(', ')} | | |`,
    `| frames delivered, per second | ${Math.round(gateway.frames / gateway.seconds)} | ${Math.round(bare.frames / bare.seconds)} | | |`,
    `| MB delivered, per second | ${(gateway.bytes / gateway.seconds / 1e6).toFixed(1)} | ${(bare.bytes / bare.seconds / 1e6).toFixed(1)} | | |`,
    `| server CPU, cores (the API replica without readers: ${result.apiCoresWithoutReaders.toFixed(2)}) | ${cores.api.toFixed(2)} | ${cores.bare.toFixed(2)} | | |`,
    `| frames delivered per second of server CPU, the API replica's whole CPU | ${Math.round(gatewayRate)} | ${Math.round(bareRate)} | ${TARGET_COST_RATIO} of bare | ${costCell(costRatio)} |`,
    `| the same, the stream's part of it (beyond the API replica's CPU without readers) | ${Math.round(streamRate)} | ${Math.round(bareRate)} | ${TARGET_COST_RATIO} of bare | ${costCell(streamRatio)} |`,
    `| later snapshots (conflations, resyncs); connections closed | ${gateway.laterSnapshots}; ${gateway.closed} | | | |`,
    `| API replica memory per reader, RSS / heap | ${perReader('rssBytes')} / ${perReader('heapBytes')} | | | |`,
    `| ingest, Redis, sandbox, readers CPU, cores | ${cores.ingest.toFixed(2)}, ${cores.redis.toFixed(2)}, ${cores.sandbox.toFixed(2)}, ${cores.readers.toFixed(2)} | | | |`,
    ...(result.apiProfile
      ? ['', "### Where the API replica's CPU went while recording", '', ...result.apiProfile]
      : []),
  ];
}

if (require.main === module)
  main().catch((error: unknown) => {
    process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  });
