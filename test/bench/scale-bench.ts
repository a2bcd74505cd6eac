import Redis from 'ioredis';
import { mkdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { StoreKeys } from '../../src/store/keys';
import { parseMetrics } from '../support/metrics-text';
import { startRedisServer } from '../support/redis-server';
import { monotonicMicros, profileTables, ProfileWindow, readCpuProfile } from './cpu-profile';
import {
  freePort,
  gatewayEnv,
  leastHeapUsedBytes,
  MainProcess,
  progress,
  redisCpuSeconds,
  sleep,
  startSandboxProcess,
} from './bench-process';
import { describeMachine } from './machine';

/**
 * Scale: cold start and memory per market of a split deployment at several market counts. For each
 * count, a private redis-server and a sandbox exchange of that many markets (warmed up, REST limits
 * on, one order a second per market, a day of history at a fixed rate per market) are started; then three ingest replicas (`ROLE=ingest`) are
 * spawned at once and timed until each answers `/health/ready` 200 with no listed instrument unowned
 * and every owned book live. After a settling pause, the memory of each process and of Redis is
 * read, then an API replica (`ROLE=api`) is started against the same Redis and read once ready. Last,
 * the steady cost: the CPU of the ingest replicas, the API replica and Redis over 10 s.
 *
 *   node -r ./test/bench/swc-register.js test/bench/scale-bench.ts                       100, 1,000, 5,000
 *   ... scale-bench.ts --markets 100,1000                                               the counts given
 *   ... scale-bench.ts --markets 5000 --heap-prof-dir DIR                               the gateways' heaps sampled
 *   ... scale-bench.ts --markets 5000 --cpu-prof-dir DIR                                the ingest replicas' start profiled
 *   ... scale-bench.ts --markets 1000 --flow 0                                          quiet markets (default 1 order/s)
 *
 * Needs `npm run build` first (it runs dist/main.js).
 */

const COLD_START_TARGET_MS = 15_000;
const INGEST_REPLICAS = 3;
const SETTLE_MS = 5_000;
const HEAP_SAMPLE_MS = 250;
const STEADY_MS = 10_000;
/**
 * History orders a second per market over the sandbox's day, fixed so that every market holds about
 * as many trades at every count (the sandbox's default spreads one budget over all markets).
 */
const HISTORY_RATE = '0.005';
const POLL_MS = 100;
/** The sandbox holds every market's book and a day of history: 5,000 markets need about 5 GB. */
const SANDBOX_NODE_OPTIONS = ['--max-old-space-size=12000'];

interface ProcessMemory {
  readonly rssBytes: number;
  readonly heapUsedBytes: number;
}

interface ScaleRun {
  readonly markets: number;
  readonly listed: number;
  readonly readyMs: number;
  /** CPU seconds of the three ingest replicas together, of the sandbox and of Redis, from the spawn to ready. */
  readonly ingestCpuSeconds: number;
  readonly sandboxCpuSeconds: number;
  readonly redisCpuSeconds: number;
  readonly sandboxWarmUpMs: number;
  readonly ingest: readonly (ProcessMemory & { readonly owned: number })[];
  /** `rssBytes` before any scrape of its /metrics; `scrapedRssBytes` after (a scrape reads every book for the listing-health gauges). */
  readonly api: ProcessMemory & { readonly scrapedRssBytes: number };
  readonly redisUsedBytes: number;
  readonly trades: number;
  readonly levelsPerBook: number;
  readonly steady: SteadyCost;
  /** With `--cpu-prof-dir`: where the ingest replicas' CPU went from their spawn to ready. */
  readonly startProfile?: string[];
}

/** Cores used over the steady window, and the commands Redis ran a second (those of scripts included). */
interface SteadyCost {
  readonly ingestCores: number;
  readonly apiCores: number;
  readonly redisCores: number;
  readonly redisCommandsPerSecond: number;
}

interface ReadyBody {
  readonly status?: string;
  readonly ingest?: {
    readonly listed?: number;
    readonly instruments?: number;
    readonly notLive?: unknown[];
    readonly unowned?: number | null;
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      markets: { type: 'string', default: '100,1000,5000' },
      'heap-prof-dir': { type: 'string' },
      'cpu-prof-dir': { type: 'string' },
      'ready-within': { type: 'string', default: '300' },
      flow: { type: 'string', default: '1' },
    },
  });
  const profiles: Profiles = {};
  if (values['heap-prof-dir']) profiles.heapDir = resolve(values['heap-prof-dir']);
  if (values['cpu-prof-dir']) profiles.cpuDir = resolve(values['cpu-prof-dir']);
  for (const dir of [profiles.heapDir, profiles.cpuDir]) if (dir) mkdirSync(dir, { recursive: true });
  const counts = values.markets.split(',').map((text) => {
    const count = Number(text);
    if (!Number.isInteger(count) || count <= 0) throw new Error(`--markets: positive integers, not ${text}`);
    return count;
  });
  const started = new Date();
  const loadAtStart = loadavg()[0];
  const runs: ScaleRun[] = [];
  const readyWithinMs = Number(values['ready-within']) * 1000;
  for (const markets of counts) runs.push(await scaleRun(markets, readyWithinMs, values.flow, profiles));

  const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
  const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
  const sum = (memories: readonly ProcessMemory[], key: keyof ProcessMemory) =>
    memories.reduce((total, memory) => total + memory[key], 0);
  const lines = [
    `Run ${started.toISOString()}, ${Math.round((Date.now() - started.getTime()) / 1000)} s`,
    `Machine: ${describeMachine()}`,
    `Command: node -r ./test/bench/swc-register.js test/bench/scale-bench.ts${process.argv.length > 2 ? ` ${process.argv.slice(2).join(' ')}` : ''}`,
    `Load average (1 min) at start and end: ${loadAtStart.toFixed(2)}, ${loadavg()[0].toFixed(2)}`,
    '',
    `| markets (listed) | ${INGEST_REPLICAS} ingest replicas ready | **/ 15 s target** | CPU to ready, ingest / sandbox / Redis | µs of ingest CPU a level | books owned per replica | levels a book, trades | ingest RSS / heap, all ${INGEST_REPLICAS} | API RSS, before / after a /metrics scrape; heap | Redis used | steady cores, ingest / API / Redis; Redis commands/s |`,
    '| --- | ---: | --- | ---: | ---: | --- | --- | ---: | ---: | ---: | ---: |',
  ];
  for (const run of runs) {
    const ratio = run.readyMs / COLD_START_TARGET_MS;
    lines.push(
      `| ${run.markets} (${run.listed}) | ${(run.readyMs / 1000).toFixed(1)} s | **${ratio.toFixed(2)}**${ratio <= 1 ? '' : ' (missed)'} | ` +
        `${run.ingestCpuSeconds.toFixed(1)} / ${run.sandboxCpuSeconds.toFixed(1)} / ${run.redisCpuSeconds.toFixed(1)} s | ` +
        `${((run.ingestCpuSeconds * 1e6) / (run.listed * run.levelsPerBook)).toFixed(1)} | ` +
        `${run.ingest.map((replica) => replica.owned).join(', ')} | ${run.levelsPerBook.toFixed(0)}, ${run.trades} | ` +
        `${mib(sum(run.ingest, 'rssBytes'))} / ${mib(sum(run.ingest, 'heapUsedBytes'))} | ` +
        `${mib(run.api.rssBytes)} / ${mib(run.api.scrapedRssBytes)}; ${mib(run.api.heapUsedBytes)} | ${mib(run.redisUsedBytes)} | ` +
        `${run.steady.ingestCores.toFixed(3)} / ${run.steady.apiCores.toFixed(3)} / ${run.steady.redisCores.toFixed(3)}; ` +
        `${run.steady.redisCommandsPerSecond.toFixed(0)} |`,
    );
  }
  lines.push(
    '',
    'Per listed market, between consecutive counts (the growth of each total divided by the markets added):',
    '',
    '| from → to | ingest RSS / heap, all replicas | API RSS before a scrape / heap | Redis |',
    '| --- | ---: | ---: | ---: |',
  );
  for (let index = 1; index < runs.length; index++) {
    const [a, b] = [runs[index - 1], runs[index]];
    const added = b.listed - a.listed;
    const per = (before: number, after: number) => kib((after - before) / added);
    lines.push(
      `| ${a.listed} → ${b.listed} | ${per(sum(a.ingest, 'rssBytes'), sum(b.ingest, 'rssBytes'))} / ` +
        `${per(sum(a.ingest, 'heapUsedBytes'), sum(b.ingest, 'heapUsedBytes'))} | ` +
        `${per(a.api.rssBytes, b.api.rssBytes)} / ${per(a.api.heapUsedBytes, b.api.heapUsedBytes)} | ` +
        `${per(a.redisUsedBytes, b.redisUsedBytes)} |`,
    );
  }
  lines.push(
    '',
    `Sandbox warm-up (not timed): ${runs.map((run) => `${run.markets}: ${(run.sandboxWarmUpMs / 1000).toFixed(1)} s`).join(', ')}`,
    '',
  );
  for (const run of runs)
    if (run.startProfile)
      lines.push(
        `${run.markets} markets, the ${INGEST_REPLICAS} ingest replicas from spawn to ready:`,
        '',
        ...run.startProfile,
      );
  process.stdout.write(`${lines.join('\n')}\n`);
}

interface Profiles {
  heapDir?: string;
  cpuDir?: string;
}

async function scaleRun(
  markets: number,
  readyWithinMs: number,
  flow: string,
  profiles: Profiles,
): Promise<ScaleRun> {
  progress(`scale ${markets}: redis-server and a sandbox of ${markets} markets (warm-up not timed)`);
  const redis = await startRedisServer();
  const admin = new Redis(redis.url);
  const warmUpStarted = performance.now();
  const sandbox = await startSandboxProcess(
    {
      SANDBOX_MARKET_COUNT: String(markets),
      SANDBOX_FLOW_RATE: flow,
      SANDBOX_RATE_LIMITS: 'true',
      SANDBOX_HISTORY_RATE: HISTORY_RATE,
    },
    600_000,
    SANDBOX_NODE_OPTIONS,
  );
  const sandboxWarmUpMs = performance.now() - warmUpStarted;
  const redisBaseline = await usedMemory(admin);
  const processes: MainProcess[] = [];
  let run: ScaleRun;
  let profileWindow: ProfileWindow | undefined;
  let ingestPids: number[] = [];
  const spawn = async (role: 'ingest' | 'api'): Promise<{ process: MainProcess; url: string }> => {
    const port = await freePort();
    const child = MainProcess.spawn(`${role} ${processes.length + 1}`, {
      // As the image runs it: glibc hands large freed blocks back to the system (see RELIABILITY.md).
      env: {
        ...gatewayEnv(sandbox.url, port),
        ROLE: role,
        REDIS_URL: redis.url,
        MALLOC_MMAP_THRESHOLD_: '131072',
      },
      nodeOptions: [
        ...(profiles.heapDir ? ['--heap-prof', `--heap-prof-dir=${profiles.heapDir}`] : []),
        ...(profiles.cpuDir && role === 'ingest' ? ['--cpu-prof', `--cpu-prof-dir=${profiles.cpuDir}`] : []),
      ],
    });
    processes.push(child);
    return { process: child, url: `http://127.0.0.1:${port}` };
  };
  try {
    progress(`scale ${markets}: spawning ${INGEST_REPLICAS} ingest replicas`);
    const ingest = await Promise.all(Array.from({ length: INGEST_REPLICAS }, () => spawn('ingest')));
    const spawnedAt = Math.min(...ingest.map((replica) => replica.process.startedAt));
    const profileStart = monotonicMicros();
    ingestPids = ingest.map((replica) => replica.process.pid);
    const sandboxCpuBefore = sandbox.process.cpuSeconds();
    const redisCpuBefore = await redisCpuSeconds(admin);
    let listed = 0;
    let lastReportAt = performance.now();
    for (;;) {
      for (const replica of ingest)
        if (replica.process.exited)
          throw new Error(`${replica.process.name} exited:\n${replica.process.recentOutput()}`);
      if (performance.now() - spawnedAt > readyWithinMs)
        throw new Error(`not ready within ${readyWithinMs / 1000} s`);
      const bodies = await Promise.all(ingest.map((replica) => readiness(replica.url)));
      listed = Math.max(0, ...bodies.map((body) => body?.ingest?.listed ?? 0));
      const owned = bodies.reduce((total, body) => total + (body?.ingest?.instruments ?? 0), 0);
      const ready = bodies.every((body) => body?.status === 'ready' && body.ingest?.unowned === 0);
      if (ready && listed > 0 && owned === listed) break;
      if (performance.now() - lastReportAt >= 5_000) {
        lastReportAt = performance.now();
        const notLive = bodies.reduce((total, body) => total + (body?.ingest?.notLive?.length ?? 0), 0);
        progress(
          `  ${Math.round((lastReportAt - spawnedAt) / 1000)} s: ${owned} of ${listed} owned, ${notLive} not live, ` +
            `unowned ${bodies.map((body) => body?.ingest?.unowned ?? '?').join('/')}`,
        );
      }
      await sleep(POLL_MS);
    }
    const readyMs = performance.now() - spawnedAt;
    profileWindow = { start: profileStart, end: monotonicMicros() };
    const ingestCpuSeconds = ingest.reduce((total, replica) => total + replica.process.cpuSeconds(), 0);
    const sandboxCpuSeconds = sandbox.process.cpuSeconds() - sandboxCpuBefore;
    const redisCpuToReady = (await redisCpuSeconds(admin)) - redisCpuBefore;
    progress(`scale ${markets}: ready in ${Math.round(readyMs)} ms; settling`);
    const ingestMemory = await Promise.all(
      ingest.map(async (replica) => ({
        ...(await memoryOf(replica.process, replica.url)),
        owned: (await readiness(replica.url))?.ingest?.instruments ?? 0,
      })),
    );
    const redisUsedBytes = (await usedMemory(admin)) - redisBaseline;
    const { trades, levelsPerBook } = await storedSample(
      admin,
      ingest.map((replica) => replica.url),
    );

    progress(`scale ${markets}: an API replica`);
    const api = await spawn('api');
    await api.process.waitFor(`${api.url}/health/ready`, 120_000);
    await sleep(SETTLE_MS);
    const apiRssBytes = api.process.rssBytes();
    const scraped = await memoryOf(api.process, api.url);
    const apiMemory = { ...scraped, rssBytes: apiRssBytes, scrapedRssBytes: scraped.rssBytes };
    progress(`scale ${markets}: ${STEADY_MS / 1000} s of steady cost`);
    const steady = await steadyCost(
      ingest.map((replica) => replica.process),
      api.process,
      admin,
    );
    run = {
      markets,
      listed,
      readyMs,
      ingestCpuSeconds,
      sandboxCpuSeconds,
      redisCpuSeconds: redisCpuToReady,
      sandboxWarmUpMs,
      ingest: ingestMemory,
      api: apiMemory,
      redisUsedBytes,
      trades,
      levelsPerBook,
      steady,
    };
  } finally {
    await Promise.all(processes.map((child) => child.stop()));
    await sandbox.process.stop();
    admin.disconnect();
    await redis.stop();
  }
  if (!profiles.cpuDir || !profileWindow) return run;
  // Written as each process exits.
  const startProfiles = ingestPids.map((pid) => readCpuProfile(profiles.cpuDir!, pid));
  return { ...run, startProfile: profileTables(startProfiles, profileWindow) };
}

async function readiness(url: string): Promise<ReadyBody | undefined> {
  try {
    // Generous: a replica busy loading thousands of books answers late, but it answers.
    const response = await fetch(`${url}/health/ready`, { signal: AbortSignal.timeout(10_000) });
    return (await response.json()) as ReadyBody;
  } catch {
    return undefined;
  }
}

/** RSS from /proc, and the least V8 heap in use of samples taken over the settling pause. */
async function memoryOf(child: MainProcess, url: string): Promise<ProcessMemory> {
  const heapUsedBytes = await leastHeapUsedBytes(url, SETTLE_MS / HEAP_SAMPLE_MS, HEAP_SAMPLE_MS);
  return { rssBytes: child.rssBytes(), heapUsedBytes };
}

async function steadyCost(
  ingest: readonly MainProcess[],
  api: MainProcess,
  admin: Redis,
): Promise<SteadyCost> {
  const read = async () => ({
    ingest: ingest.reduce((total, replica) => total + replica.cpuSeconds(), 0),
    api: api.cpuSeconds(),
    redisCpu: await redisCpuSeconds(admin),
    redisCommands: await redisCommands(admin),
  });
  const before = await read();
  await sleep(STEADY_MS);
  const after = await read();
  const seconds = STEADY_MS / 1000;
  return {
    ingestCores: (after.ingest - before.ingest) / seconds,
    apiCores: (after.api - before.api) / seconds,
    redisCores: (after.redisCpu - before.redisCpu) / seconds,
    redisCommandsPerSecond: (after.redisCommands - before.redisCommands) / seconds,
  };
}

/** The commands Redis has run so far (`INFO commandstats`, those run by scripts included). */
async function redisCommands(admin: Redis): Promise<number> {
  let commands = 0;
  for (const match of (await admin.info('commandstats')).matchAll(/^cmdstat_[^:]+:calls=(\d+)/gm))
    commands += Number(match[1]);
  return commands;
}

async function usedMemory(admin: Redis): Promise<number> {
  const info = await admin.info('memory');
  return Number(/used_memory:(\d+)/.exec(info)![1]);
}

/** Trades in the 24-hour windows of every replica, and the book depth averaged over up to 50 markets. */
async function storedSample(
  admin: Redis,
  ingestUrls: readonly string[],
): Promise<{ trades: number; levelsPerBook: number }> {
  const metrics = (
    await Promise.all(ingestUrls.map(async (url) => (await fetch(`${url}/metrics`)).text()))
  ).flatMap(parseMetrics);
  const trades = metrics
    .filter((sample) => sample.name === 'mdg_trades_in_window')
    .reduce((total, sample) => total + sample.value, 0);
  const instruments = metrics
    .filter((sample) => sample.name === 'mdg_book_version')
    .map((sample) => sample.labels.instrument)
    .slice(0, 50);
  const keys = new StoreKeys();
  let levels = 0;
  for (const instrument of instruments) {
    const { bids, asks } = keys.instrument(instrument);
    levels += (await admin.hlen(bids)) + (await admin.hlen(asks));
  }
  return { trades, levelsPerBook: instruments.length === 0 ? 0 : levels / instruments.length };
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
