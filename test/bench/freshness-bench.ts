import { mkdirSync } from 'node:fs';
import { loadavg, setPriority } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Tuning } from '../../src/config/tuning';
import { parseMetrics, MetricSample } from '../support/metrics-text';
import { MainProcess, percentile, positive, progress, sleep, startSandboxProcess } from './bench-process';
import {
  lagsFrom,
  ObservedTop,
  recentTrades,
  tickerKey,
  tickerStates,
  timeableTickerStates,
  topKey,
  topLags,
  versionLags,
} from './freshness-matching';
import { monotonicMicros, profileTables, ProfileWindow, readCpuProfile } from './cpu-profile';
import {
  deploy,
  Deployment,
  emittedTops,
  openInstruments,
  postJson,
  setBurst,
  Topology,
  untilQuiet,
  EXCHANGE_NICENESS,
  IDLE_CORES,
} from './burst-stack';
import { describeMachine } from './machine';

/**
 * Freshness under a burst: the sandbox exchange (its own process) drives a fixed rate of book
 * updates spread over its markets; the gateway ingests them, as deployed (an ingest replica and an API
 * replica on a private redis-server) or, with `--topology all`, one process with the state in memory.
 * The burst starts once the ingest has finished starting up (its CPU gone quiet). Two phases on it:
 *
 * 1. nobody polls the API: the gateway's CPU (from /proc) is its cost of ingesting at that rate, and
 *    the event-loop delay p99 is prom-client's, read from /metrics at the start and end of the phase
 *    (each read resets its histogram);
 * 2. pollers watch the API: `/orderbook/{i}?depth=2` of some markets every few milliseconds, each
 *    change of the top of the book recorded with the time it was first seen, and `/trades/{i}` of a
 *    few markets, each new trade with the time it was first seen. The sandbox records every state of
 *    the top of the watched books with its event time (`/sandbox/top-log`), and every trade carries
 *    its own; lag = first seen - event time. One more poller reads CoinGecko's `/tickers` (every
 *    market's best bid and ask) and notes when each watched market's pair of prices changed, matched
 *    against the states whose prices changed (see tickerStates); the target applies to the states
 *    whose prices do not come back within moments, which such a poller cannot time (see
 *    timeableTickerStates), and every state's lag is shown beside it. A state the API skipped (several
 *    changes in one write) counts as visible when a newer one is. The figures include the polling
 *    interval (a change is seen up to one interval late), so they are upper bounds at that
 *    resolution. The ingest's part of the lag is measured apart: event time to the store's change
 *    notice of the version. The pollers start a second before the window (POLLER_WARM_UP_MS).
 *
 *   node -r ./test/bench/swc-register.js test/bench/freshness-bench.ts          about 50 s (phases of 5 s)
 *   ... freshness-bench.ts --full                                                about 2 min (phases of 30 s)
 *   ... freshness-bench.ts --cpu-prof-dir prof      the gateway's processes profiled; their self time in the watched phase by area and function
 *   ... freshness-bench.ts --flush-interval-ms 50                                another flush interval
 *   ... freshness-bench.ts --gateway-first     the exchange at a lower CPU priority than the gateway
 *   ... freshness-bench.ts --ingest-node-options="--single-threaded-gc"  V8 and Node flags for the ingesting process
 *
 * Needs `npm run build` first (it runs dist/main.js).
 */

/** The targets. */
const TARGET_LAG_P99_MS = 150;
const TARGET_INGEST_CORES = 0.25;

/**
 * A ticker state whose prices were shown this shortly before it, or come back this shortly after
 * it, is not timed (see timeableTickerStates): well over the lag being measured.
 */
const TICKER_RETURN_WINDOW_MS = 500;

/**
 * The pollers start this long before the watched window: a poller's first requests (its connections,
 * its first parse of each body, the API's first build of each response since the burst began) are
 * not what a poller that has been running for hours sees, and the states emitted while they ran
 * would all be timed by them.
 */
const POLLER_WARM_UP_MS = 1_000;

interface Settings {
  readonly topology: Topology;
  /**
   * The exchange, which in production runs on other machines, runs at a lower CPU priority (nice 10),
   * so that on a small machine it takes what the gateway's processes leave instead of an equal share.
   * The pollers keep theirs: a starved poller would add its own delay to every lag.
   */
  readonly gatewayFirst: boolean;
  readonly markets: number;
  readonly updatesPerSecond: number;
  readonly phaseSeconds: number;
  readonly settleSeconds: number;
  readonly bookWatchers: number;
  readonly tradeWatchers: number;
  readonly bookPollMs: number;
  readonly tradePollMs: number;
  readonly tickerPollMs: number;
  readonly profileDir?: string;
  /** The ingest's flush interval (`flushIntervalMs`); its default when not given. */
  readonly flushIntervalMs?: number;
  /** Node and V8 flags for the ingesting process (the ingest replica, or the one process of `all`). */
  readonly ingestNodeOptions: readonly string[];
}

interface PhaseLoad {
  readonly seconds: number;
  /** The ingesting process: the ingest replica, or the one process of `all`. */
  readonly gatewayCores: number;
  /** The API replica and Redis (split only). */
  readonly apiCores?: number;
  readonly redisCores?: number;
  readonly sandboxCores: number;
  /** Book versions the gateway applied per second, over every market. */
  readonly appliedUpdatesPerSecond: number;
  /** Batched store writes per second: the flush cadence the ingest kept. */
  readonly storeWritesPerSecond: number;
  /** A write's mean duration, from the flush's send to its replies, and the share over 100 ms. */
  readonly storeWriteMeanMs: number;
  readonly storeWritesOver100Ms: number;
  /** The ingest's scavenges (V8's minor collections): per second, and their mean pause. */
  readonly scavengesPerSecond: number;
  readonly scavengeMeanMs: number;
  readonly eventLoopDelayP50Ms: number;
  readonly eventLoopDelayP99Ms: number;
  readonly eventLoopDelayMaxMs: number;
}

export interface FreshnessResult {
  readonly settings: Settings;
  readonly quiet: PhaseLoad;
  readonly polled: PhaseLoad;
  readonly book: LagFigures &
    PollRoundTrips & {
      readonly observations: number;
      readonly pollsPerWatcherPerSecond: number;
    };
  /** Split only: from event time to the store's change notice of the version (the ingest's part of the lag). */
  readonly stored?: LagFigures;
  readonly trades: LagFigures & { readonly pollsPerWatcherPerSecond: number };
  /**
   * The watched books' best bid and ask through CoinGecko's `/tickers`, prices only: the states a
   * poller can time (timeableTickerStates), and every state, returns of prices included.
   */
  readonly ticker: LagFigures &
    PollRoundTrips & { readonly pollsPerSecond: number; readonly everyState: LagFigures };
  /** With `--cpu-prof-dir`: where each gateway process's CPU went in the watched phase. */
  readonly profiles?: readonly { readonly name: string; readonly tables: readonly string[] }[];
}

/** One poll's request to response, p50 and p99: part of the lag, on top of the poll interval. */
interface PollRoundTrips {
  readonly pollRoundTripP50Ms: number;
  readonly pollRoundTripP99Ms: number;
}

function roundTripFigures(roundTrips: readonly number[]): PollRoundTrips {
  return { pollRoundTripP50Ms: percentile(roundTrips, 50), pollRoundTripP99Ms: percentile(roundTrips, 99) };
}

interface LagFigures {
  readonly samples: number;
  readonly unseen: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      full: { type: 'boolean', default: false },
      markets: { type: 'string', default: '200' },
      rate: { type: 'string', default: '20000' },
      seconds: { type: 'string' },
      'book-watchers': { type: 'string', default: '10' },
      'trade-watchers': { type: 'string', default: '4' },
      'cpu-prof-dir': { type: 'string' },
      'flush-interval-ms': { type: 'string' },
      'gateway-first': { type: 'boolean', default: false },
      topology: { type: 'string', default: 'split' },
      'ingest-node-options': { type: 'string', default: '' },
    },
  });
  if (values.topology !== 'split' && values.topology !== 'all') throw new Error('--topology: split or all');
  const profileDir = values['cpu-prof-dir'] && resolve(values['cpu-prof-dir']);
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  const settings: Settings = {
    topology: values.topology,
    gatewayFirst: values['gateway-first'],
    markets: positive(values.markets, 'markets'),
    updatesPerSecond: positive(values.rate, 'rate'),
    phaseSeconds: positive(values.seconds ?? (values.full ? '30' : '5'), 'seconds'),
    settleSeconds: values.full ? 5 : 3,
    bookWatchers: positive(values['book-watchers'], 'book-watchers'),
    tradeWatchers: positive(values['trade-watchers'], 'trade-watchers'),
    bookPollMs: 20,
    tradePollMs: 50,
    tickerPollMs: 50,
    profileDir,
    ingestNodeOptions: values['ingest-node-options'].split(' ').filter((flag) => flag !== ''),
    ...(values['flush-interval-ms'] !== undefined
      ? { flushIntervalMs: positive(values['flush-interval-ms'], 'flush-interval-ms') }
      : {}),
  };
  const started = new Date();
  const loadAtStart = loadavg()[0];
  const result = await runFreshness(settings);
  process.stdout.write(`${report(result, started, loadAtStart, process.argv.slice(2)).join('\n')}\n`);
}

export async function runFreshness(settings: Settings): Promise<FreshnessResult> {
  progress(`freshness: sandbox with ${settings.markets} markets, quiet until the burst`);
  const sandbox = await startSandboxProcess({
    SANDBOX_MARKET_COUNT: String(settings.markets),
    SANDBOX_FLOW_RATE: '0',
    SANDBOX_HISTORY_HOURS: '1',
  });
  let deployment: Deployment | undefined;
  let result: FreshnessResult;
  let watchedWindow: ProfileWindow;
  let profiled: { name: string; pid: number }[];
  try {
    deployment = await deploy(settings, sandbox.url);
    profiled = [
      {
        name: settings.topology === 'all' ? 'gateway (role all)' : 'ingest replica',
        pid: deployment.gateway.pid,
      },
      ...(deployment.api ? [{ name: 'API replica', pid: deployment.api.pid }] : []),
    ];
    // Raising the niceness of a process of one's own user needs no privilege.
    if (settings.gatewayFirst) setPriority(sandbox.process.pid, EXCHANGE_NICENESS);
    const { apiUrl } = deployment;
    const instruments = await openInstruments(apiUrl);
    if (instruments.length < settings.bookWatchers + settings.tradeWatchers)
      throw new Error(`only ${instruments.length} open markets`);
    const watchedBooks = instruments.slice(0, settings.bookWatchers);
    const watchedTrades = instruments.slice(
      settings.bookWatchers,
      settings.bookWatchers + settings.tradeWatchers,
    );

    // Ready is not idle: the first minute of an ingest also fetches the trade window of every market.
    // The burst starts once that is done, or the phases would measure start-up as well.
    progress('freshness: waiting for the gateway to finish starting up (its CPU to go quiet)');
    await untilQuiet(deployment.gateway, IDLE_CORES, 60_000);
    progress(
      `freshness: burst of ${settings.updatesPerSecond} book updates/s; ${settings.settleSeconds} s to settle`,
    );
    await setBurst(sandbox.url, settings.updatesPerSecond);
    await sleep(settings.settleSeconds * 1000);

    progress(`freshness: ${settings.phaseSeconds} s unobserved (ingest CPU, event-loop delay)`);
    const quiet = await measurePhase(deployment, sandbox.process, settings.phaseSeconds, () =>
      sleep(settings.phaseSeconds * 1000),
    );

    progress(
      `freshness: ${settings.phaseSeconds} s watched (${watchedBooks.length} books, ${watchedTrades.length} trade lists)`,
    );
    const storedVersions = await deployment.recordStoredVersions?.(watchedBooks);
    // The top log starts with the pollers: the states of the warm-up are the matching's history.
    await postJson(`${sandbox.url}/sandbox/top-log`, { instruments: watchedBooks });
    const pollersStart = Date.now();
    const phaseStart = pollersStart + POLLER_WARM_UP_MS;
    const watching = { on: true };
    const bookWatches = watchedBooks.map((instrument) =>
      watchBook(apiUrl, instrument, settings.bookPollMs, watching),
    );
    const tradeWatches = watchedTrades.map((instrument) =>
      watchTrades(apiUrl, instrument, settings.tradePollMs, phaseStart, watching),
    );
    const tickerWatch = watchTickers(apiUrl, watchedBooks, settings.tickerPollMs, watching);
    await sleep(phaseStart - Date.now());
    const watchedStart = monotonicMicros();
    const polled = await measurePhase(deployment, sandbox.process, settings.phaseSeconds, () =>
      sleep(settings.phaseSeconds * 1000),
    );
    watchedWindow = { start: watchedStart, end: monotonicMicros() };
    // The burst stops; the watchers go on until the last changes have reached the API.
    await setBurst(sandbox.url, 0);
    await sleep(2_000);
    watching.on = false;
    const books = await Promise.all(bookWatches);
    const trades = await Promise.all(tradeWatches);
    const tickers = await tickerWatch;
    const watchedSeconds = (Date.now() - pollersStart) / 1000;

    const bookLags: number[] = [];
    const storeLags: number[] = [];
    const tickerLags: number[] = [];
    const timeableTickerLags: number[] = [];
    let tickerUnseen = 0;
    let timeableTickerUnseen = 0;
    let unseen = 0;
    let unstored = 0;
    let observations = 0;
    for (const [index, instrument] of watchedBooks.entries()) {
      const emitted = await emittedTops(sandbox.url, instrument);
      const matched = topLags(emitted, books[index].observed);
      bookLags.push(...lagsFrom(emitted, matched.lags, phaseStart));
      unseen += matched.unseen;
      observations += books[index].observed.length;
      const stored = storedVersions && versionLags(emitted, storedVersions.get(instrument) ?? []);
      storeLags.push(...lagsFrom(emitted, stored?.lags ?? [], phaseStart));
      unstored += stored?.unseen ?? 0;
      const states = tickerStates(emitted);
      const byTicker = topLags(states, tickers.observed.get(instrument) ?? []);
      const timeable = timeableTickerStates(states, TICKER_RETURN_WINDOW_MS);
      tickerLags.push(...lagsFrom(states, byTicker.lags, phaseStart));
      timeableTickerLags.push(...lagsFrom(states, byTicker.lags, phaseStart, timeable));
      tickerUnseen += byTicker.unseen;
      timeableTickerUnseen += timeable.slice(byTicker.lags.length).filter(Boolean).length;
    }
    const tradeLags = trades.flatMap((watch) => watch.lags);
    result = {
      settings,
      quiet,
      polled,
      book: {
        ...figures(bookLags, unseen),
        observations,
        pollsPerWatcherPerSecond: average(books.map((watch) => watch.polls)) / watchedSeconds,
        ...roundTripFigures(books.flatMap((watch) => watch.roundTrips)),
      },
      ...(storedVersions ? { stored: figures(storeLags, unstored) } : {}),
      trades: {
        ...figures(tradeLags, 0),
        pollsPerWatcherPerSecond: average(trades.map((watch) => watch.polls)) / watchedSeconds,
      },
      ticker: {
        ...figures(timeableTickerLags, timeableTickerUnseen),
        everyState: figures(tickerLags, tickerUnseen),
        pollsPerSecond: tickers.polls / watchedSeconds,
        ...roundTripFigures(tickers.roundTrips),
      },
    };
  } finally {
    await deployment?.stop();
    await sandbox.process.stop();
  }
  // Each process writes its profile as it exits.
  const { profileDir } = settings;
  if (!profileDir) return result;
  const profiles = profiled.map(({ name, pid }) => ({
    name,
    tables: profileTables(readCpuProfile(profileDir, pid), watchedWindow),
  }));
  return { ...result, profiles };
}

async function measurePhase(
  deployment: Deployment,
  sandbox: MainProcess,
  seconds: number,
  during: () => Promise<void>,
): Promise<PhaseLoad> {
  const { gateway, api } = deployment;
  const before = await metrics(deployment.ingestUrl);
  const gatewayCpu = gateway.cpuSeconds();
  const apiCpu = api?.cpuSeconds();
  const redisCpu = await deployment.redisCpuSeconds?.();
  const sandboxCpu = sandbox.cpuSeconds();
  const startedAt = performance.now();
  await during();
  const measured = (performance.now() - startedAt) / 1000 || seconds;
  const gatewayCores = (gateway.cpuSeconds() - gatewayCpu) / measured;
  const apiCores = api && apiCpu !== undefined ? (api.cpuSeconds() - apiCpu) / measured : undefined;
  const redisAfter = await deployment.redisCpuSeconds?.();
  const redisCores =
    redisCpu !== undefined && redisAfter !== undefined ? (redisAfter - redisCpu) / measured : undefined;
  const sandboxCores = (sandbox.cpuSeconds() - sandboxCpu) / measured;
  const after = await metrics(deployment.ingestUrl);
  const eventLoop = (name: string): number =>
    1000 * (value(after, `mdg_nodejs_eventloop_lag_${name}_seconds`) ?? NaN);
  const writes = histogramChange(before, after, 'mdg_store_write_duration_seconds', {}, '0.1');
  const scavenges = histogramChange(before, after, 'mdg_nodejs_gc_duration_seconds', { kind: 'minor' });
  return {
    seconds: measured,
    gatewayCores,
    apiCores,
    redisCores,
    sandboxCores,
    appliedUpdatesPerSecond: versionsApplied(before, after) / measured,
    storeWritesPerSecond: (storeWrites(after) - storeWrites(before)) / measured,
    storeWriteMeanMs: (1000 * writes.sum) / writes.count,
    storeWritesOver100Ms: 1 - writes.atMost / writes.count,
    scavengesPerSecond: scavenges.count / measured,
    scavengeMeanMs: (1000 * scavenges.sum) / scavenges.count,
    eventLoopDelayP50Ms: eventLoop('p50'),
    eventLoopDelayP99Ms: eventLoop('p99'),
    eventLoopDelayMaxMs: eventLoop('max'),
  };
}

/** Polls the top of one book; records each change with the time its response arrived. */
async function watchBook(
  gatewayUrl: string,
  instrument: string,
  intervalMs: number,
  watching: { on: boolean },
): Promise<{ observed: ObservedTop[]; polls: number; roundTrips: number[] }> {
  const observed: ObservedTop[] = [];
  const roundTrips: number[] = [];
  let polls = 0;
  let last = '';
  while (watching.on) {
    const sent = performance.now();
    const response = await fetch(`${gatewayUrl}/orderbook/${instrument}?depth=2`);
    const time = Date.now();
    roundTrips.push(performance.now() - sent);
    polls++;
    if (response.ok) {
      const book = (await response.json()) as { bids: string[][]; asks: string[][] };
      const key = topKey(book.bids[0], book.asks[0]);
      if (key !== last) observed.push({ time, key });
      last = key;
    } else await response.arrayBuffer();
    await sleep(Math.max(0, intervalMs - (performance.now() - sent)));
  }
  return { observed, polls, roundTrips };
}

/** Polls one market's trades; each trade of the phase gives a lag: first seen - its own timestamp. */
async function watchTrades(
  gatewayUrl: string,
  instrument: string,
  intervalMs: number,
  since: number,
  watching: { on: boolean },
): Promise<{ lags: number[]; polls: number }> {
  const seen = new Set<string>();
  const lags: number[] = [];
  let polls = 0;
  while (watching.on) {
    const sent = performance.now();
    const response = await fetch(`${gatewayUrl}/trades/${instrument}`);
    const time = Date.now();
    polls++;
    if (response.ok) {
      for (const trade of recentTrades(await response.text(), since)) {
        const id = String(trade.tradeID);
        if (seen.has(id)) continue;
        seen.add(id);
        lags.push(time - Number(trade.trade_timestamp));
      }
    } else await response.arrayBuffer();
    await sleep(Math.max(0, intervalMs - (performance.now() - sent)));
  }
  return { lags, polls };
}

/**
 * Polls CoinGecko's `/tickers` (every market in one response); records each change of a watched
 * market's best bid and ask prices with the time its response arrived.
 */
async function watchTickers(
  gatewayUrl: string,
  instruments: readonly string[],
  intervalMs: number,
  watching: { on: boolean },
): Promise<{ observed: Map<string, ObservedTop[]>; polls: number; roundTrips: number[] }> {
  const observed = new Map(instruments.map((instrument) => [instrument, [] as ObservedTop[]]));
  const last = new Map<string, string>();
  const roundTrips: number[] = [];
  let polls = 0;
  while (watching.on) {
    const sent = performance.now();
    const response = await fetch(`${gatewayUrl}/coingecko/tickers`);
    const time = Date.now();
    roundTrips.push(performance.now() - sent);
    polls++;
    if (response.ok) {
      const tickers = (await response.json()) as { ticker_id: string; bid: string; ask: string }[];
      for (const ticker of tickers) {
        const instrument = ticker.ticker_id.toLowerCase();
        const changes = observed.get(instrument);
        if (!changes) continue;
        const key = tickerKey(topKey(ticker.bid ? [ticker.bid] : null, ticker.ask ? [ticker.ask] : null));
        if (key !== last.get(instrument)) changes.push({ time, key });
        last.set(instrument, key);
      }
    } else await response.arrayBuffer();
    await sleep(Math.max(0, intervalMs - (performance.now() - sent)));
  }
  return { observed, polls, roundTrips };
}

async function metrics(gatewayUrl: string): Promise<MetricSample[]> {
  const response = await fetch(`${gatewayUrl}/metrics`);
  return parseMetrics(await response.text());
}

function value(samples: readonly MetricSample[], name: string): number | undefined {
  return samples.find((sample) => sample.name === name)?.value;
}

/** Batched writes the store took so far. */
function storeWrites(samples: readonly MetricSample[]): number {
  return samples
    .filter((sample) => sample.name === 'mdg_store_writes_total' && sample.labels.result === 'written')
    .reduce((sum, sample) => sum + sample.value, 0);
}

/**
 * What a histogram counted between two reads: observations, their sum, and those at most the bucket
 * `le` (when given), over the series whose labels include `labels`.
 */
function histogramChange(
  before: readonly MetricSample[],
  after: readonly MetricSample[],
  name: string,
  labels: Readonly<Record<string, string>>,
  le?: string,
): { count: number; sum: number; atMost: number } {
  const total = (samples: readonly MetricSample[], series: string, bucket?: string): number =>
    samples
      .filter(
        (sample) =>
          sample.name === series &&
          (bucket === undefined || sample.labels.le === bucket) &&
          Object.entries(labels).every(([label, wanted]) => sample.labels[label] === wanted),
      )
      .reduce((sum, sample) => sum + sample.value, 0);
  const change = (series: string, bucket?: string): number =>
    total(after, series, bucket) - total(before, series, bucket);
  return {
    count: change(`${name}_count`),
    sum: change(`${name}_sum`),
    atMost: le === undefined ? 0 : change(`${name}_bucket`, le),
  };
}

/** Book versions applied between two reads, over the instruments both reads have. */
function versionsApplied(before: readonly MetricSample[], after: readonly MetricSample[]): number {
  const versions = (samples: readonly MetricSample[]): Map<string, number> =>
    new Map(
      samples
        .filter((sample) => sample.name === 'mdg_book_version')
        .map((sample) => [sample.labels.instrument, sample.value]),
    );
  const start = versions(before);
  let applied = 0;
  for (const [instrument, version] of versions(after)) {
    const from = start.get(instrument);
    if (from !== undefined && version >= from) applied += version - from;
  }
  return applied;
}

function figures(lags: readonly number[], unseen: number): LagFigures {
  return {
    samples: lags.length,
    unseen,
    p50Ms: percentile(lags, 50),
    p99Ms: percentile(lags, 99),
    maxMs: percentile(lags, 100),
  };
}

function average(values: readonly number[]): number {
  return values.reduce((sum, v) => sum + v, 0) / Math.max(1, values.length);
}

export function report(
  result: FreshnessResult,
  started: Date,
  loadAtStart: number,
  args: readonly string[],
): string[] {
  const { settings, quiet, polled, book, trades, ticker } = result;
  const ratio = (measured: number, target: number): string =>
    `**${(measured / target).toFixed(2)}** of the target${measured <= target ? '' : ' (missed)'}`;
  // CPU per update does not depend on how much CPU the machine's other load left the gateway.
  const perThousand = (phase: PhaseLoad): string =>
    ((phase.gatewayCores * 1_000_000) / phase.appliedUpdatesPerSecond).toFixed(1);
  const projected = (phase: PhaseLoad): string =>
    ((phase.gatewayCores / phase.appliedUpdatesPerSecond) * settings.updatesPerSecond).toFixed(2);
  const cores = (v: number | undefined): string => (v === undefined ? 'n/a' : v.toFixed(2));
  const ms = (v: number): string => (Number.isNaN(v) ? 'n/a' : `${Math.round(v)} ms`);
  const percent = (share: number): string => (Number.isNaN(share) ? 'n/a' : `${Math.round(100 * share)} %`);
  return [
    `Run ${started.toISOString()}, ${Math.round((Date.now() - started.getTime()) / 1000)} s`,
    `Machine: ${describeMachine()}`,
    `Command: node -r ./test/bench/swc-register.js test/bench/freshness-bench.ts${args.length ? ` ${args.join(' ')}` : ''}`,
    `Load average (1 min) at start and end: ${loadAtStart.toFixed(2)}, ${loadavg()[0].toFixed(2)}`,
    `Gateway: ${
      settings.topology === 'split'
        ? 'an ingest replica and an API replica (each node dist/main.js) on a private redis-server'
        : 'one node dist/main.js, role all, state in memory'
    }`,
    `Burst: ${settings.updatesPerSecond} book updates/s requested over ${settings.markets} markets; ` +
      `phases of ${settings.phaseSeconds} s after ${settings.settleSeconds} s to settle; ` +
      `flush interval ${settings.flushIntervalMs ?? `default (${new Tuning().flushIntervalMs})`} ms` +
      (settings.gatewayFirst ? '; the exchange at nice 10 (--gateway-first)' : '') +
      (settings.ingestNodeOptions.length > 0
        ? `; ingest run with ${settings.ingestNodeOptions.join(' ')}`
        : ''),
    '',
    '| figure | unobserved phase | watched phase | target | measured / target |',
    '| --- | ---: | ---: | ---: | --- |',
    `| book updates/s the gateway applied | ${Math.round(quiet.appliedUpdatesPerSecond)} | ${Math.round(polled.appliedUpdatesPerSecond)} | ${settings.updatesPerSecond} | |`,
    `| ingest CPU, cores | ${quiet.gatewayCores.toFixed(2)} | ${polled.gatewayCores.toFixed(2)} | ${TARGET_INGEST_CORES} | ${ratio(quiet.gatewayCores, TARGET_INGEST_CORES)} |`,
    `| ingest CPU per 1,000 applied updates; cores it projects at ${settings.updatesPerSecond}/s | ${perThousand(quiet)} ms; ${projected(quiet)} | ${perThousand(polled)} ms; ${projected(polled)} | ${TARGET_INGEST_CORES} | ${ratio((quiet.gatewayCores / quiet.appliedUpdatesPerSecond) * settings.updatesPerSecond, TARGET_INGEST_CORES)} |`,
    ...(settings.topology === 'split'
      ? [
          `| API replica CPU, cores | ${cores(quiet.apiCores)} | ${cores(polled.apiCores)} | | |`,
          `| Redis CPU, cores | ${cores(quiet.redisCores)} | ${cores(polled.redisCores)} | | |`,
        ]
      : []),
    `| sandbox CPU, cores | ${quiet.sandboxCores.toFixed(2)} | ${polled.sandboxCores.toFixed(2)} | | |`,
    `| ingest's batched store writes per second | ${quiet.storeWritesPerSecond.toFixed(1)} | ${polled.storeWritesPerSecond.toFixed(1)} | | |`,
    `| ingest's store write, mean; share over 100 ms | ${ms(quiet.storeWriteMeanMs)}; ${percent(quiet.storeWritesOver100Ms)} | ${ms(polled.storeWriteMeanMs)}; ${percent(polled.storeWritesOver100Ms)} | | |`,
    `| ingest's scavenges per second; mean pause | ${quiet.scavengesPerSecond.toFixed(1)}; ${ms(quiet.scavengeMeanMs)} | ${polled.scavengesPerSecond.toFixed(1)}; ${ms(polled.scavengeMeanMs)} | | |`,
    `| ingest event-loop delay p50 / p99 / max | ${ms(quiet.eventLoopDelayP50Ms)} / ${ms(quiet.eventLoopDelayP99Ms)} / ${ms(quiet.eventLoopDelayMaxMs)} | ${ms(polled.eventLoopDelayP50Ms)} / ${ms(polled.eventLoopDelayP99Ms)} / ${ms(polled.eventLoopDelayMaxMs)} | | |`,
    `| book top lag p50 / p99 / max (${book.samples} changes, ${book.unseen} never shown; ${settings.bookWatchers} books polled ${book.pollsPerWatcherPerSecond.toFixed(0)}/s each) | | ${ms(book.p50Ms)} / ${ms(book.p99Ms)} / ${ms(book.maxMs)} | p99 ${TARGET_LAG_P99_MS} ms | ${ratio(book.p99Ms, TARGET_LAG_P99_MS)} |`,
    ...(result.stored
      ? [
          `| of the book top lag: to the store's change notice, p50 / p99 / max (${result.stored.unseen} never stored) | | ${ms(result.stored.p50Ms)} / ${ms(result.stored.p99Ms)} / ${ms(result.stored.maxMs)} | | |`,
        ]
      : []),
    `| of the book top lag: one poll's round trip p50 / p99 (polled every ${settings.bookPollMs} ms) | | ${ms(book.pollRoundTripP50Ms)} / ${ms(book.pollRoundTripP99Ms)} | | |`,
    `| ticker lag (CoinGecko /tickers bid and ask) p50 / p99 / max (${ticker.samples} changes a poller can time, ${ticker.unseen} never shown; polled ${ticker.pollsPerSecond.toFixed(0)}/s) | | ${ms(ticker.p50Ms)} / ${ms(ticker.p99Ms)} / ${ms(ticker.maxMs)} | p99 ${TARGET_LAG_P99_MS} ms | ${ratio(ticker.p99Ms, TARGET_LAG_P99_MS)} |`,
    `| ticker lag, every change of prices, returns to recent prices included (upper bound) p50 / p99 / max (${ticker.everyState.samples} changes) | | ${ms(ticker.everyState.p50Ms)} / ${ms(ticker.everyState.p99Ms)} / ${ms(ticker.everyState.maxMs)} | | |`,
    `| of the ticker lag: one poll's round trip p50 / p99 (polled every ${settings.tickerPollMs} ms) | | ${ms(ticker.pollRoundTripP50Ms)} / ${ms(ticker.pollRoundTripP99Ms)} | | |`,
    `| trade lag p50 / p99 / max (${trades.samples} trades; ${settings.tradeWatchers} trade lists polled ${trades.pollsPerWatcherPerSecond.toFixed(0)}/s each) | | ${ms(trades.p50Ms)} / ${ms(trades.p99Ms)} / ${ms(trades.maxMs)} | p99 ${TARGET_LAG_P99_MS} ms | ${ratio(trades.p99Ms, TARGET_LAG_P99_MS)} |`,
    '',
    ...(result.profiles ?? []).flatMap(({ name, tables }) => [
      `### Where the ${name}'s CPU went in the watched phase`,
      '',
      ...tables,
    ]),
  ];
}

if (require.main === module)
  main().catch((error: unknown) => {
    process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  });
