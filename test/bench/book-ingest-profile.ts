import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startRedisServer } from '../support/redis-server';
import { sleep } from './bench-process';
import { describeMachine } from './machine';
import { ServerProcess } from './server-process';

/**
 * The ingest's hot paths under a real stream: the sandbox exchange at a high synthetic flow, the
 * gateway in role `ingest` writing to a private Redis, its CPU profiled over a fixed window. Prints
 * the gateway's CPU per 1,000 book deltas the exchange published, and where that CPU went, by
 * function and by area (parse, decode, book, store flush, Redis client, GC).
 *
 *   npm run bench -- --only ingest-profile
 *   npm run bench -- --only ingest-profile --flow 400 --seconds 30 --keep-profile
 */

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
}

interface CpuProfile {
  /** Microseconds, on the profiled process's clock. */
  readonly startTime: number;
  readonly endTime: number;
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** Areas of the ingest by source file; the first match wins. */
const AREAS: readonly (readonly [area: string, pattern: RegExp])[] = [
  ['garbage collection', /^\(garbage collector\)/],
  ['JSON parse (exact)', /exact-json|lossless-json/],
  ['hub protocol and client', /upstream\/hub\/|@microsoft\/signalr/],
  ['book item decode', /json-fields|book-item\.codec|market\/decimal|big\.js/],
  ['order book', /market\/order-book|book-synchronizer/],
  ['pipeline and store flush', /ingest\/|src\/store\//],
  ['Redis client', /ioredis|redis-parser|denque|cluster-key-slot/],
  ['websocket', /node_modules\/ws\//],
  ['node internals', /^node:|^internal|^$/],
];

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      full: { type: 'boolean', default: false },
      flow: { type: 'string', default: '1000' },
      seconds: { type: 'string' },
      'keep-profile': { type: 'boolean', default: false },
    },
  });
  const flow = Number(values.flow);
  const seconds = Number(values.seconds ?? (values.full ? 60 : 10));
  const profileDir = mkdtempSync(join(tmpdir(), 'ingest-profile-'));
  const started = new Date();
  const loadAtStart = loadavg()[0];
  const redis = await startRedisServer();
  const sandbox = await ServerProcess.start('sandbox', 'sandbox-process.ts', {
    env: { BENCH_FLOW_RATE: '0' },
  });
  let gateway: ServerProcess | undefined;
  try {
    const instruments = await listedInstruments(sandbox.url);
    gateway = await ServerProcess.start('gateway', 'gateway-process.ts', {
      env: { BENCH_ROLE: 'ingest', BENCH_REDIS_URL: redis.url, BENCH_UPSTREAM_URL: sandbox.url },
      nodeOptions: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`],
    });
    await setFlow(sandbox.url, flow);
    // Let the books sync and the flow settle before the window opens.
    await sleep(5_000);
    const versionsBefore = await bookVersions(sandbox.url, instruments);
    const cpuBefore = gateway.cpuSeconds();
    const windowStart = performance.now();
    await sleep(seconds * 1000);
    const cpu = gateway.cpuSeconds() - cpuBefore;
    const elapsed = (performance.now() - windowStart) / 1000;
    const windowEnd = performance.now();
    const versionsAfter = await bookVersions(sandbox.url, instruments);
    await gateway.close();
    gateway = undefined;
    // The profile ends as the gateway exits, which is when close() returns: the window is placed back from there.
    const closed = performance.now();
    const window = { fromEnd: (closed - windowStart) * 1000, toEnd: (closed - windowEnd) * 1000 };
    const deltas = versionsAfter.reduce((sum, version, index) => sum + version - versionsBefore[index], 0);
    const profile = JSON.parse(
      readFileSync(
        join(
          profileDir,
          readdirSync(profileDir).find((name) => name.endsWith('.cpuprofile'))!,
        ),
        'utf8',
      ),
    ) as CpuProfile;
    const lines = [
      '## Ingest profile',
      '',
      `${started.toISOString()}, ${describeMachine()}, load average ${loadAtStart.toFixed(2)} at the start, ` +
        `${loadavg()[0].toFixed(2)} at the end.`,
      `Sandbox flow ${flow} synthetic orders/s on each of ${instruments.length} markets; gateway role ingest on a ` +
        `private Redis; ${seconds} s window after 5 s to sync.`,
      '',
      `Book deltas published: ${(deltas / elapsed).toFixed(0)}/s. Gateway CPU: ${((100 * cpu) / elapsed).toFixed(0)} % ` +
        `of a core, **${((1e6 * cpu) / Math.max(1, deltas)).toFixed(1)} CPU ms per 1,000 deltas**.`,
      '',
      ...profileTables(profile, window),
      values['keep-profile'] ? `Profile: ${profileDir}` : '',
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await gateway?.close();
    await sandbox.close();
    await redis.stop();
    if (!values['keep-profile']) rmSync(profileDir, { recursive: true, force: true });
  }
}

/**
 * Self time by area and the top functions, over the samples of the measured window (`fromEnd` to
 * `toEnd` microseconds before the profile's end), so that start-up and sync are left out.
 */
function profileTables(profile: CpuProfile, window: { fromEnd: number; toEnd: number }): string[] {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const byFunction = new Map<string, number>();
  let total = 0;
  let time = profile.startTime;
  profile.samples.forEach((id, index) => {
    time += profile.timeDeltas[index] ?? 0;
    const beforeEnd = profile.endTime - time;
    if (beforeEnd > window.fromEnd || beforeEnd < window.toEnd) return;
    const frame = nodes.get(id)!.callFrame;
    const where = frame.url.replace(/^.*\/(node_modules\/|src\/)/, '$1');
    const key = `${frame.functionName || '(anonymous)'} ${where}${frame.lineNumber >= 0 ? `:${frame.lineNumber + 1}` : ''}`;
    const self = profile.timeDeltas[index] ?? 0;
    byFunction.set(key, (byFunction.get(key) ?? 0) + self);
    total += self;
  });
  const busy = [...byFunction].filter(([key]) => !key.startsWith('(idle)') && !key.startsWith('(program)'));
  const busyTotal = busy.reduce((sum, [, time]) => sum + time, 0);
  const byArea = new Map<string, number>();
  for (const [key, time] of busy) {
    const area = AREAS.find(
      ([, pattern]) => pattern.test(key.slice(key.indexOf(' ') + 1)) || pattern.test(key),
    )?.[0];
    byArea.set(area ?? 'other', (byArea.get(area ?? 'other') ?? 0) + time);
  }
  const share = (time: number) => `${((100 * time) / busyTotal).toFixed(1)} %`;
  return [
    `Busy ${((100 * busyTotal) / total).toFixed(0)} % of the window's samples; shares of the busy time:`,
    '',
    '| area | self time |',
    '| --- | ---: |',
    ...[...byArea].sort((a, b) => b[1] - a[1]).map(([area, time]) => `| ${area} | ${share(time)} |`),
    '',
    '| function | self time |',
    '| --- | ---: |',
    ...busy
      .sort((a, b) => b[1] - a[1])
      .slice(0, 15)
      .map(([key, time]) => `| \`${key}\` | ${share(time)} |`),
    '',
  ];
}

async function listedInstruments(baseUrl: string): Promise<string[]> {
  const response = await fetch(`${baseUrl}/frontoffice/api/info`);
  const body = (await response.json()) as { pairs: Record<string, { isHidden?: number }> };
  return Object.keys(body.pairs);
}

async function bookVersions(baseUrl: string, instruments: readonly string[]): Promise<number[]> {
  return Promise.all(
    instruments.map(async (instrument) => {
      const response = await fetch(`${baseUrl}/sandbox/truth/${instrument}`);
      const body = (await response.json()) as { book: { version: number } };
      return body.book.version;
    }),
  );
}

async function setFlow(baseUrl: string, ratePerSecond: number): Promise<void> {
  const response = await fetch(`${baseUrl}/sandbox/flow`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ratePerSecond }),
  });
  if (!response.ok) throw new Error(`POST /sandbox/flow: ${response.status}`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
