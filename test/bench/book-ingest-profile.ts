import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startRedisServer } from '../support/redis-server';
import { sleep } from './bench-process';
import { monotonicMicros, profileTables, readCpuProfile } from './cpu-profile';
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
    const windowStart = monotonicMicros();
    await sleep(seconds * 1000);
    const cpu = gateway.cpuSeconds() - cpuBefore;
    const window = { start: windowStart, end: monotonicMicros() };
    const elapsed = (window.end - window.start) / 1e6;
    const versionsAfter = await bookVersions(sandbox.url, instruments);
    const gatewayPid = gateway.pid;
    // The profile is written as the gateway exits.
    await gateway.close();
    gateway = undefined;
    const deltas = versionsAfter.reduce((sum, version, index) => sum + version - versionsBefore[index], 0);
    const profile = readCpuProfile(profileDir, gatewayPid);
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
