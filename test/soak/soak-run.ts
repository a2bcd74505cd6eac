import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import Redis from 'ioredis';
import { StoreKeys } from '../../src/store/keys';
import { describeMachine } from '../bench/machine';
import { ApiLoad, untilServing } from '../chaos/api-load';
import { ChaosStack } from '../chaos/chaos-stack';
import { LISTED } from '../support/fault-cases';
import { sleep } from '../support/fault-run';
import { readMetrics, sampleValue } from '../support/metrics-text';
import { Growth, growthOf, SoakMeasure, SoakSample, WINDOW_MS } from './growth';

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

const MEASURES: readonly { measure: SoakMeasure; label: string; bytes: boolean }[] = [
  { measure: 'rssBytes', label: 'RSS', bytes: true },
  { measure: 'heapUsedBytes', label: 'heap used', bytes: true },
  { measure: 'heapTotalBytes', label: 'heap total', bytes: true },
  { measure: 'externalBytes', label: 'external', bytes: true },
  { measure: 'activeHandles', label: 'active handles', bytes: false },
  { measure: 'activeResources', label: 'active resources', bytes: false },
  { measure: 'redisUsedBytes', label: 'Redis used_memory', bytes: true },
  { measure: 'redisBesidesTradesBytes', label: 'Redis besides the stored trades', bytes: true },
];

/** The run's target: no measure grows by more than this after warm-up. */
const TARGET_PERCENT = 10;

/** Production's settings, but for the flush interval the chaos run also uses. */
const PRODUCTION_TIMEOUTS = {
  UPSTREAM_KEEPALIVE_MS: '15000',
  UPSTREAM_SERVER_TIMEOUT_MS: '30000',
  UPSTREAM_PONG_TIMEOUT_MS: '10000',
  BOOK_VERIFY_INTERVAL_MS: '60000',
  CATALOG_REFRESH_MS: '60000',
  TRADES_SNAPSHOT_COUNT: '1000',
};

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      minutes: { type: 'string', default: '30' },
      'warm-up': { type: 'string', default: '5' },
      'sample-seconds': { type: 'string', default: '10' },
      flow: { type: 'string', default: '4' },
      out: { type: 'string', default: 'reliability-results' },
    },
  });
  const durationMs = Number(values.minutes) * 60_000;
  const warmUpMs = Number(values['warm-up']) * 60_000;
  const sampleMs = Number(values['sample-seconds']) * 1_000;
  const flowRate = Number(values.flow);
  if (warmUpMs + 2 * WINDOW_MS > durationMs)
    throw new Error(`the run must last the warm-up and ${(2 * WINDOW_MS) / 60_000} more minutes`);
  const startedAt = new Date();
  const log = (line: string) => process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);

  const stack = await ChaosStack.start('single', flowRate, {
    // A full day of history, so that the 24-hour window starts full, as in production.
    sandbox: { SANDBOX_HISTORY_HOURS: '24', SANDBOX_KEEPALIVE_MS: '15000' },
    ingest: PRODUCTION_TIMEOUTS,
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
      const info = await redis.info('memory');
      const tradeKeys = LISTED.map((instrument) => keys.instrument(instrument).trades);
      const trades = await Promise.all(tradeKeys.map((key) => redis.zcard(key)));
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
        activeHandles: value('mdg_nodejs_active_handles_total'),
        activeResources: value('mdg_nodejs_active_resources_total'),
        redisUsedBytes,
        redisBesidesTradesBytes: redisUsedBytes - tradeBytes.reduce((sum, bytes) => sum + bytes, 0),
        storedTrades: trades.reduce((sum, count) => sum + count, 0),
        requestsServed: load.counts().served,
      };
      samples.push(sample);
      if (samples.length % 6 === 1)
        log(
          `${Math.round(sample.elapsedMs / 1000)} s: RSS ${mib(sample.rssBytes)}, heap ${mib(sample.heapUsedBytes)} of ${mib(sample.heapTotalBytes)}, external ${mib(sample.externalBytes)}, ` +
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
    });
    const directory = resolve(values.out!);
    mkdirSync(directory, { recursive: true });
    writeFileSync(resolve(directory, 'soak.json'), `${JSON.stringify({ growths, samples: all }, null, 2)}\n`);
    writeFileSync(resolve(directory, 'soak.md'), `${markdown}\n`);
    process.stdout.write(`\n${markdown}\n\nWritten to ${directory}/soak.json and soak.md\n`);
    const within = growths.every((growth) => growth.growthPercent < TARGET_PERCENT);
    process.exitCode = within && failed === 0 ? 0 : 1;
  }
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
}

function soakMarkdown(summary: SoakSummary): string {
  const format = (growth: Growth, value: number) =>
    MEASURES.find((entry) => entry.measure === growth.measure)!.bytes ? mib(value) : value.toFixed(1);
  const rows = summary.growths.map((growth) => {
    const label = MEASURES.find((entry) => entry.measure === growth.measure)!.label;
    const verdict = growth.growthPercent < TARGET_PERCENT ? 'yes' : 'no';
    return `| ${label} | ${format(growth, growth.afterWarmUp)} | ${format(growth, growth.atEnd)} | ${growth.growthPercent.toFixed(1)} % | ${growth.trendPercentPerHour.toFixed(1)} % | ${verdict} |`;
  });
  return [
    `Command: \`${summary.command}\``,
    `Machine: ${summary.machine}. Started ${summary.startedAt}, ${summary.minutes.toFixed(1)} minutes, a sample every ${summary.sampleSeconds} s, ${summary.warmUpMinutes} minutes of warm-up.`,
    `One gateway process (ROLE=all) on a private Redis, ${summary.flowRate} synthetic orders/s per market, 24 hours of history.`,
    '',
    `| Measure | floor of the first 2 minutes after warm-up | floor of the last 2 minutes | growth | trend per hour | under ${TARGET_PERCENT} % |`,
    '|---|---|---|---|---|---|',
    ...rows,
    '',
    `- Stored trades (every listed market) after warm-up: ${summary.tradesFrom}, at the end: ${summary.tradesTo}: the 24-hour window fills as the run goes, so part of any memory growth is data.`,
    `- Requests served: ${summary.served}; failed: ${summary.failed}.`,
    ...(summary.examples.length > 0 ? ['', ...summary.examples.slice(0, 10).map((line) => `- ${line}`)] : []),
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
