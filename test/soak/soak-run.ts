import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import Redis from 'ioredis';
import { SandboxTuning } from 'sandbox-exchange';
import { Tuning } from '../../src/config/tuning';
import { StoreKeys } from '../../src/store/keys';
import { MINUTE_COUNT_FIELD } from '../../src/store/trade-history';
import { describeMachine } from '../bench/machine';
import { ApiLoad, untilServing } from '../chaos/api-load';
import { ChaosStack } from '../chaos/chaos-stack';
import { LISTED } from '../support/fault-cases';
import { sleep } from '../support/fault-run';
import { readMetrics, sampleValue } from '../support/metrics-text';
import { floors, Growth, growthOf, SoakMeasure, SoakSample, WINDOW_MS } from './growth';
import { deployedRuntimeEnv } from './deployed-env';
import { heapSpaceSizes, readKernelMemory } from './process-memory';

/**
 * The soak run, out of the test suite (npm run soak): one gateway process of the real build
 * (ROLE=all, on a private Redis, production timeouts) ingests from the sandbox's steady order flow
 * while aggregators poll its API; the process's RSS, heap, handles and Redis' memory are sampled and
 * their growth after warm-up reported. Needs a current build.
 *
 *   npm run soak                        30 minutes, a sample every 10 s, 5 minutes of warm-up
 *   npm run soak -- --minutes 15 --warm-up 3
 *
 * Writes `soak.json` and `soak.md` to `--out` (default reliability-results/).
 */

/**
 * What is sampled. The measures with `target` must grow by less than TARGET_PERCENT; the others break
 * RSS and the heap down, to tell which part grows.
 */
const MEASURES: readonly { measure: SoakMeasure; label: string; bytes: boolean; target?: true }[] = [
  { measure: 'rssBytes', label: 'RSS', bytes: true, target: true },
  { measure: 'heapUsedBytes', label: 'heap used', bytes: true, target: true },
  { measure: 'heapTotalBytes', label: 'heap total', bytes: true, target: true },
  { measure: 'externalBytes', label: 'external', bytes: true, target: true },
  { measure: 'newSpaceBytes', label: 'V8 new space', bytes: true },
  { measure: 'oldSpaceBytes', label: 'V8 old space', bytes: true },
  { measure: 'codeSpaceBytes', label: 'V8 code space', bytes: true },
  { measure: 'largeObjectBytes', label: 'V8 large objects', bytes: true },
  { measure: 'outsideHeapBytes', label: 'RSS less heap total', bytes: true },
  { measure: 'mainArenaBytes', label: 'malloc main arena', bytes: true },
  { measure: 'rssFileBytes', label: 'RSS of mapped files', bytes: true },
  { measure: 'threads', label: 'threads', bytes: false },
  { measure: 'activeHandles', label: 'active handles', bytes: false, target: true },
  { measure: 'activeResources', label: 'active resources', bytes: false, target: true },
  { measure: 'redisUsedBytes', label: 'Redis used_memory', bytes: true, target: true },
  { measure: 'redisBesidesTradesBytes', label: 'Redis besides the stored trades', bytes: true, target: true },
];

/** The run's target: no measure grows by more than this after warm-up. */
const TARGET_PERCENT = 10;

/** Production's tuning, but for the short lease the chaos run also uses. */
const PRODUCTION_TUNING: Partial<Tuning> = Object.fromEntries(
  Object.entries(new Tuning()).filter(([key]) => key !== 'leaseTtlMs'),
);

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      minutes: { type: 'string', default: '30' },
      'warm-up': { type: 'string', default: '5' },
      'sample-seconds': { type: 'string', default: '10' },
      flow: { type: 'string', default: '4' },
      out: { type: 'string', default: 'reliability-results' },
      // Settings of the gateway process, KEY=VALUE, on top of the Dockerfile's: to try a runtime setting.
      env: { type: 'string', multiple: true, default: [] },
    },
  });
  const gatewayEnv: Record<string, string> = {
    ...deployedRuntimeEnv(),
    ...Object.fromEntries(
      values.env!.map((pair) => {
        const at = pair.indexOf('=');
        if (at < 1) throw new Error(`--env wants KEY=VALUE, not ${pair}`);
        return [pair.slice(0, at), pair.slice(at + 1)];
      }),
    ),
  };
  const durationMs = Number(values.minutes) * 60_000;
  const warmUpMs = Number(values['warm-up']) * 60_000;
  const sampleMs = Number(values['sample-seconds']) * 1_000;
  const flowRate = Number(values.flow);
  if (warmUpMs + 2 * WINDOW_MS > durationMs)
    throw new Error(`the run must last the warm-up and ${(2 * WINDOW_MS) / 60_000} more minutes`);
  const startedAt = new Date();
  const log = (line: string) => process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);

  const stack = await ChaosStack.start('single', flowRate, {
    // A full day of history at the live flow's own rate, so that the 24-hour trade window starts as
    // full as it stays: a sparse history fills through the whole run, and its memory with it.
    sandbox: {
      SANDBOX_HISTORY_HOURS: '24',
      SANDBOX_HISTORY_RATE: String(flowRate),
    },
    sandboxTuning: new SandboxTuning(),
    ingest: gatewayEnv,
    ingestTuning: PRODUCTION_TUNING,
  });
  const redis = new Redis(stack.redis.url);
  const keys = new StoreKeys();
  const paths = [
    '/summary',
    '/ticker',
    '/asset',
    '/cmc/summary',
    '/coingecko/tickers',
    ...LISTED.flatMap((instrument) => [`/orderbook/${instrument}`, `/trades/${instrument}`]),
  ];
  const load = new ApiLoad(
    { urls: () => stack.apiUrls(), inOutage: () => false, outageEpoch: () => 0, context: () => 'soak' },
    paths,
    2,
  );
  const samples: SoakSample[] = [];
  try {
    const url = stack.apiUrls()[0];
    await untilServing(url, paths, 120_000);
    load.start();
    const started = Date.now();
    while (Date.now() - started < durationMs) {
      const metrics = await readMetrics(url);
      const value = (name: string) => sampleValue(metrics, name) ?? Number.NaN;
      const spaces = heapSpaceSizes(metrics, 'mdg_');
      const kernel = await readKernelMemory(stack.pids()['gateway-1']!);
      const info = await redis.info('memory');
      const histories = LISTED.map((instrument) => keys.instrument(instrument).tradeHistory);
      const trades = await Promise.all(
        histories.map(async (key) => Number((await redis.hget(key, MINUTE_COUNT_FIELD)) ?? 0)),
      );
      const tradeKeys = LISTED.flatMap((instrument) => {
        const { tradeHistory, tradeOpenMinute } = keys.instrument(instrument);
        return [tradeHistory, tradeOpenMinute];
      });
      const tradeBytes = await Promise.all(
        tradeKeys.map(async (key) => Number((await redis.call('MEMORY', 'USAGE', key)) ?? 0)),
      );
      const redisUsedBytes = Number(/used_memory:(\d+)/.exec(info)?.[1] ?? Number.NaN);
      const sample: SoakSample = {
        elapsedMs: Date.now() - started,
        rssBytes: value('mdg_process_resident_memory_bytes'),
        heapUsedBytes: value('mdg_nodejs_heap_size_used_bytes'),
        heapTotalBytes: value('mdg_nodejs_heap_size_total_bytes'),
        externalBytes: value('mdg_nodejs_external_memory_bytes'),
        newSpaceBytes: spaces.new,
        oldSpaceBytes: spaces.old,
        codeSpaceBytes: spaces.code,
        largeObjectBytes: spaces.large_object + spaces.new_large_object,
        outsideHeapBytes:
          value('mdg_process_resident_memory_bytes') - value('mdg_nodejs_heap_size_total_bytes'),
        mainArenaBytes: kernel.mainArenaBytes,
        rssFileBytes: kernel.rssFileBytes,
        threads: kernel.threads,
        activeHandles: value('mdg_nodejs_active_handles_total'),
        activeResources: value('mdg_nodejs_active_resources_total'),
        redisUsedBytes,
        redisBesidesTradesBytes: redisUsedBytes - tradeBytes.reduce((sum, bytes) => sum + bytes, 0),
        storedTrades: trades.reduce((sum, count) => sum + count, 0),
        requestsServed: load.counts().served,
        cpuSeconds: value('mdg_process_cpu_seconds_total'),
        gcSeconds: metrics
          .filter((sample) => sample.name === 'mdg_nodejs_gc_duration_seconds_sum')
          .reduce((sum, sample) => sum + sample.value, 0),
        majorGcs: sampleValue(metrics, 'mdg_nodejs_gc_duration_seconds_count', { kind: 'major' }) ?? 0,
        loadAverage: loadavg()[0],
      };
      samples.push(sample);
      if (samples.length % 6 === 1)
        log(
          `${Math.round(sample.elapsedMs / 1000)} s: RSS ${mib(sample.rssBytes)}, heap ${mib(sample.heapUsedBytes)} of ${mib(sample.heapTotalBytes)} ` +
            `(new ${mib(sample.newSpaceBytes)}, old ${mib(sample.oldSpaceBytes)}), outside it ${mib(sample.outsideHeapBytes)} (main arena ${mib(sample.mainArenaBytes)}), external ${mib(sample.externalBytes)}, ` +
            `handles ${sample.activeHandles}, Redis ${mib(sample.redisUsedBytes)}, trades ${sample.storedTrades}, served ${sample.requestsServed}`,
        );
      await sleep(sampleMs);
    }
  } finally {
    const counts = await load.stop();
    redis.disconnect();
    await stack.close();
    report(samples, counts.served, counts.failed, counts.examples);
  }

  function report(all: SoakSample[], served: number, failed: number, examples: readonly string[]): void {
    const growths = MEASURES.map(({ measure }) => growthOf(all, measure, warmUpMs));
    const steady = all.filter((sample) => sample.elapsedMs >= warmUpMs);
    const tradesFrom = steady[0]?.storedTrades ?? 0;
    const tradesTo = steady[steady.length - 1]?.storedTrades ?? 0;
    const command = `npm run soak -- ${process.argv.slice(2).join(' ')}`.trim().replace(/ --$/, '');
    const markdown = soakMarkdown({
      command,
      machine: describeMachine(),
      startedAt: startedAt.toISOString(),
      minutes: (all[all.length - 1]?.elapsedMs ?? 0) / 60_000,
      warmUpMinutes: warmUpMs / 60_000,
      sampleSeconds: sampleMs / 1_000,
      flowRate,
      growths,
      served,
      failed,
      examples,
      tradesFrom,
      tradesTo,
      gatewayEnv,
      work: workOf(steady),
      windows: windowsOf(all, warmUpMs),
    });
    const directory = resolve(values.out!);
    mkdirSync(directory, { recursive: true });
    writeFileSync(resolve(directory, 'soak.json'), `${JSON.stringify({ growths, samples: all }, null, 2)}\n`);
    writeFileSync(resolve(directory, 'soak.md'), `${markdown}\n`);
    process.stdout.write(`\n${markdown}\n\nWritten to ${directory}/soak.json and soak.md\n`);
    const within = growths.every(
      (growth) => !isTarget(growth.measure) || growth.growthPercent < TARGET_PERCENT,
    );
    process.exitCode = within && failed === 0 ? 0 : 1;
  }
}

function isTarget(measure: SoakMeasure): boolean {
  return MEASURES.find((entry) => entry.measure === measure)?.target === true;
}

function mib(bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(1)} MiB`;
}

interface SoakSummary {
  readonly command: string;
  readonly machine: string;
  readonly startedAt: string;
  readonly minutes: number;
  readonly warmUpMinutes: number;
  readonly sampleSeconds: number;
  readonly flowRate: number;
  readonly growths: readonly Growth[];
  readonly served: number;
  readonly failed: number;
  readonly examples: readonly string[];
  readonly tradesFrom: number;
  readonly tradesTo: number;
  /** The runtime settings the gateway process ran with, beyond the stack's own. */
  readonly gatewayEnv: Readonly<Record<string, string>>;
  readonly work: SteadyWork;
  readonly windows: readonly string[];
}

/** The measures whose floor is shown window by window, to tell a level reached from a steady climb. */
const WINDOW_MEASURES: readonly SoakMeasure[] = [
  'rssBytes',
  'heapUsedBytes',
  'oldSpaceBytes',
  'outsideHeapBytes',
  'mainArenaBytes',
];

/** A Markdown table of each window's floors after the warm-up, with the trades stored as it began. */
function windowsOf(samples: readonly SoakSample[], warmUpMs: number): string[] {
  const columns = WINDOW_MEASURES.map((measure) => new Map(floors(samples, measure, warmUpMs)));
  const labels = WINDOW_MEASURES.map((measure) => MEASURES.find((entry) => entry.measure === measure)!.label);
  const rows = [...columns[0].keys()].map((start) => {
    const trades = samples.find((sample) => sample.elapsedMs >= start)?.storedTrades ?? 0;
    const cells = columns.map((column) => mib(column.get(start) ?? Number.NaN));
    return `| ${(start / 60_000).toFixed(0)} | ${cells.join(' | ')} | ${trades} |`;
  });
  return [
    `| window from minute | ${labels.join(' | ')} | stored trades |`,
    `|---|${labels.map(() => '---|').join('')}---|`,
    ...rows,
  ];
}

/** What the process did after the warm-up, and what that cost it. */
interface SteadyWork {
  readonly minutes: number;
  readonly cpuSecondsPerMinute: number;
  /** Share of the process's CPU time spent in garbage collection. */
  readonly gcPercentOfCpu: number;
  readonly majorGcsPerMinute: number;
  readonly requestsPerCpuSecond: number;
  readonly loadAverage: { readonly least: number; readonly mean: number; readonly most: number };
}

function workOf(steady: readonly SoakSample[]): SteadyWork {
  const first = steady[0];
  const last = steady[steady.length - 1];
  const minutes = (last.elapsedMs - first.elapsedMs) / 60_000;
  const cpu = last.cpuSeconds - first.cpuSeconds;
  const loads = steady.map((sample) => sample.loadAverage);
  return {
    minutes,
    cpuSecondsPerMinute: cpu / minutes,
    gcPercentOfCpu: ((last.gcSeconds - first.gcSeconds) / cpu) * 100,
    majorGcsPerMinute: (last.majorGcs - first.majorGcs) / minutes,
    requestsPerCpuSecond: (last.requestsServed - first.requestsServed) / cpu,
    loadAverage: {
      least: Math.min(...loads),
      mean: loads.reduce((sum, load) => sum + load, 0) / loads.length,
      most: Math.max(...loads),
    },
  };
}

function soakMarkdown(summary: SoakSummary): string {
  const format = (growth: Growth, value: number) =>
    MEASURES.find((entry) => entry.measure === growth.measure)!.bytes ? mib(value) : value.toFixed(1);
  const rows = summary.growths.map((growth) => {
    const label = MEASURES.find((entry) => entry.measure === growth.measure)!.label;
    const verdict = !isTarget(growth.measure) ? '' : growth.growthPercent < TARGET_PERCENT ? 'yes' : 'no';
    return `| ${label} | ${format(growth, growth.afterWarmUp)} | ${format(growth, growth.atEnd)} | ${growth.growthPercent.toFixed(1)} % | ${growth.trendPercentPerHour.toFixed(1)} % | ${verdict} |`;
  });
  return [
    `Command: \`${summary.command}\``,
    `Machine: ${summary.machine}. Started ${summary.startedAt}, ${summary.minutes.toFixed(1)} minutes, a sample every ${summary.sampleSeconds} s, ${summary.warmUpMinutes} minutes of warm-up.`,
    `One gateway process (ROLE=all) on a private Redis, ${summary.flowRate} synthetic orders/s per market, 24 hours of history.`,
    `Runtime settings of the gateway: ${
      Object.entries(summary.gatewayEnv)
        .map(([name, value]) => `\`${name}=${value}\``)
        .join(', ') || 'none'
    }.`,
    `Load average (1 minute) after warm-up: ${summary.work.loadAverage.least.toFixed(1)} to ${summary.work.loadAverage.most.toFixed(1)}, mean ${summary.work.loadAverage.mean.toFixed(1)}.`,
    '',
    `| Measure | floor of the first 2 minutes after warm-up | floor of the last 2 minutes | growth | trend per hour | under ${TARGET_PERCENT} % |`,
    '|---|---|---|---|---|---|',
    ...rows,
    '',
    `- Stored trades (every listed market) after warm-up: ${summary.tradesFrom}, at the end: ${summary.tradesTo}: memory that grows with them is data, not a leak.`,
    `- Requests served: ${summary.served}; failed: ${summary.failed}.`,
    `- After warm-up the process used ${summary.work.cpuSecondsPerMinute.toFixed(1)} CPU seconds per minute, ${summary.work.gcPercentOfCpu.toFixed(1)} % of it in garbage collection, with ${summary.work.majorGcsPerMinute.toFixed(1)} full collections per minute; ${summary.work.requestsPerCpuSecond.toFixed(0)} requests served per CPU second.`,
    ...(summary.examples.length > 0 ? ['', ...summary.examples.slice(0, 10).map((line) => `- ${line}`)] : []),
    '',
    `Floors of each ${WINDOW_MS / 60_000}-minute window after the warm-up:`,
    '',
    ...summary.windows,
  ].join('\n');
}

main().then(
  // Keep-alive sockets of the load generator would hold the process open.
  () => process.exit(),
  (error: unknown) => {
    process.stderr.write(`soak: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  },
);
