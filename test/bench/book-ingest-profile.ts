import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startRedisServer } from '../support/redis-server';
import { sleep } from './bench-process';
import { monotonicMicros, profileTables, readCpuProfile } from './cpu-profile';
import { frameFloor, HubFrameRecorder } from './hub-frame-floor';
import { describeMachine } from './machine';
import { ServerProcess } from './server-process';

/**
 * The ingest's hot paths under a real stream: the sandbox exchange at a high synthetic flow, the
 * gateway in role `ingest` writing to a private Redis, its CPU measured over a fixed window. Prints
 * the gateway's CPU per 1,000 book deltas the exchange published, against the floor of the same
 * frames (recorded beside the gateway over the window, then read and applied exactly in this
 * process: see hub-frame-floor.ts); then, from a second gateway profiled over a window of its own,
 * where the CPU went, by function and by area (parse, decode, book, store flush, Redis client, GC).
 *
 *   npm run bench -- --only ingest-profile
 *   npm run bench -- --only ingest-profile --flow 400 --seconds 30 --keep-profile
 *   npm run bench -- --only ingest-profile --skip-profile    # the ratio alone
 *   ... --gateway-node-options="--perf-basic-prof"          # for perf, on the unprofiled gateway
 */

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      full: { type: 'boolean', default: false },
      flow: { type: 'string', default: '1000' },
      seconds: { type: 'string' },
      'keep-profile': { type: 'boolean', default: false },
      'skip-profile': { type: 'boolean', default: false },
      'gateway-node-options': { type: 'string', default: '' },
    },
  });
  const flow = Number(values.flow);
  const seconds = Number(values.seconds ?? (values.full ? 60 : 10));
  const profileDir = mkdtempSync(join(tmpdir(), 'ingest-profile-'));
  const started = new Date();
  const loadAtStart = loadavg()[0];
  let instruments: string[] = [];
  /**
   * One window of a gateway started afresh, with an exchange and a Redis of its own, so that each
   * window finds the same history of trades to catch up on: its CPU from `/proc`, the deltas the
   * exchange published meanwhile, and the hub's frames when `recording`.
   */
  const measure = async (nodeOptions: string[], recording: boolean) => {
    const redis = await startRedisServer();
    const sandbox = await ServerProcess.start('sandbox', 'sandbox-process.ts', {
      env: { BENCH_FLOW_RATE: '0' },
    });
    let gateway: ServerProcess | undefined;
    try {
      instruments = await listedInstruments(sandbox.url);
      await setFlow(sandbox.url, flow);
      gateway = await ServerProcess.start('gateway', 'gateway-process.ts', {
        env: { BENCH_ROLE: 'ingest', BENCH_REDIS_URL: redis.url, BENCH_UPSTREAM_URL: sandbox.url },
        nodeOptions,
      });
      const recorder = recording ? await HubFrameRecorder.open(sandbox.url, instruments) : undefined;
      // Let the books sync and the flow settle before the window opens.
      await sleep(5_000);
      recorder?.start();
      const versionsBefore = await bookVersions(sandbox.url, instruments);
      const cpuBefore = gateway.cpuSeconds();
      // In the window this process does nothing but receive the recorder's frames.
      const receiverCpuBefore = process.cpuUsage();
      const windowStart = monotonicMicros();
      await sleep(seconds * 1000);
      const cpu = gateway.cpuSeconds() - cpuBefore;
      const receiverCpuUsed = process.cpuUsage(receiverCpuBefore);
      const receiverCpu = (receiverCpuUsed.user + receiverCpuUsed.system) / 1e6;
      const window = { start: windowStart, end: monotonicMicros() };
      const frames = recorder?.stop() ?? { frames: [], windowStart: 0 };
      const versionsAfter = await bookVersions(sandbox.url, instruments);
      const pid = gateway.pid;
      // A profile is written as the gateway exits.
      await gateway.close();
      gateway = undefined;
      const deltas = versionsAfter.reduce((sum, version, index) => sum + version - versionsBefore[index], 0);
      const elapsed = (window.end - window.start) / 1e6;
      return { cpu, receiverCpu, deltas, elapsed, window, pid, frames };
    } finally {
      await gateway?.close();
      await sandbox.close();
      await redis.stop();
    }
  };
  try {
    const perThousand = (run: { cpu: number; deltas: number }) => (1e6 * run.cpu) / Math.max(1, run.deltas);
    // The profiler costs the gateway a third more CPU or so: the ratio is taken without it.
    const plain = await measure(values['gateway-node-options'].split(' ').filter(Boolean), true);
    const profiled = values['skip-profile']
      ? undefined
      : await measure(['--cpu-prof', `--cpu-prof-dir=${profileDir}`], false);
    // With the gateway gone, the floor is timed on a quieter machine than the ingest was: if anything
    // this makes the ratio larger.
    const floor = frameFloor(plain.frames);
    const ingestPer1000 = perThousand(plain);
    const receivePer1000 = perThousand({ cpu: plain.receiverCpu, deltas: plain.deltas });
    const lines = [
      '## Ingest profile',
      '',
      `${started.toISOString()}, ${describeMachine()}, load average ${loadAtStart.toFixed(2)} at the start, ` +
        `${loadavg()[0].toFixed(2)} at the end.`,
      `Sandbox flow ${flow} synthetic orders/s on each of ${instruments.length} markets; gateway role ingest on a ` +
        `private Redis; ${seconds} s window after 5 s to sync.`,
      '',
      `Book deltas published: ${(plain.deltas / plain.elapsed).toFixed(0)}/s. Gateway CPU: ` +
        `${((100 * plain.cpu) / plain.elapsed).toFixed(0)} % of a core, **${ingestPer1000.toFixed(1)} CPU ms per 1,000 deltas**.`,
      '',
      `Floor, the same ${floor.deltas} deltas' frames read and applied exactly: ${floor.cpuMsPer1000.toFixed(2)} ` +
        `CPU ms per 1,000 (rounds ${floor.lowest.toFixed(2)} to ${floor.highest.toFixed(2)}). ` +
        `**ingest CPU / floor ${(ingestPer1000 / floor.cpuMsPer1000).toFixed(1)}** ` +
        `(${(ingestPer1000 / floor.highest).toFixed(1)} to ${(ingestPer1000 / floor.lowest).toFixed(1)} over the floor's rounds).`,
      '',
      `Receiving the same frames, a bare \`ws\` client beside the gateway with its batched reads (this process over the window): ` +
        `${receivePer1000.toFixed(2)} CPU ms per 1,000 deltas. Ingest CPU / (floor + receiving): ` +
        `**${(ingestPer1000 / (floor.cpuMsPer1000 + receivePer1000)).toFixed(1)}**.`,
      '',
      ...(profiled
        ? [
            `Profiled, a gateway of its own: ${perThousand(profiled).toFixed(1)} CPU ms per 1,000 deltas ` +
              `(${(profiled.deltas / profiled.elapsed).toFixed(0)} deltas/s), the profiler included.`,
            '',
            ...profileTables(readCpuProfile(profileDir, profiled.pid), profiled.window),
          ]
        : []),
      values['keep-profile'] ? `Profile: ${profileDir}` : '',
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
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
