import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { bookAt } from '../../src/replay/book-at';
import {
  freePort,
  gatewayEnv,
  MainProcess,
  positive,
  progress,
  sleep,
  startSandboxProcess,
} from './bench-process';
import { setBurst } from './burst-stack';
import { describeMachine } from './machine';

/**
 * What recording costs: two gateways (ROLE=all, state in memory) ingest the same sandbox exchange at
 * once, one recording (RECORD_DIR) and one not, so that the difference of their CPU is the
 * recorder's, on the same flow and the same machine load. Two phases: the sandbox's default flow,
 * then a burst of book updates. After each, `book-at` is asked about its last moment, the worst case
 * (the whole file replayed).
 *
 *   node -r ./test/bench/swc-register.js test/bench/recording-bench.ts                 phases of 20 s
 *   ... recording-bench.ts --full                                                      phases of 120 s
 *   ... recording-bench.ts --seconds 60 --burst 5000
 *   ... recording-bench.ts --cpu-prof-dir prof       a CPU profile of the recording gateway
 *   ... recording-bench.ts --keep-dir rec            the recording kept there, to profile book-at on
 *
 * Needs `npm run build` first (it runs dist/main.js).
 */

const HOUR_S = 3_600;
const MIB = 1_048_576;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      full: { type: 'boolean', default: false },
      seconds: { type: 'string' },
      burst: { type: 'string', default: '2000' },
      'cpu-prof-dir': { type: 'string' },
      'keep-dir': { type: 'string' },
    },
  });
  const seconds = positive(values.seconds ?? (values.full ? '120' : '20'), '--seconds');
  const burst = positive(values.burst!, '--burst');
  const dir = values['keep-dir'] ?? mkdtempSync(join(tmpdir(), 'mdg-recording-bench-'));
  const sandbox = await startSandboxProcess({});
  const gateways: MainProcess[] = [];
  try {
    for (const recording of [true, false]) {
      const port = await freePort();
      const gateway = MainProcess.spawn(recording ? 'recording' : 'plain', {
        env: {
          ROLE: 'all',
          ...gatewayEnv(sandbox.url, port),
          ...(recording ? { RECORD_DIR: dir, INSTANCE_ID: 'bench' } : {}),
        },
        nodeOptions:
          recording && values['cpu-prof-dir']
            ? ['--cpu-prof', `--cpu-prof-dir=${values['cpu-prof-dir']}`]
            : [],
      });
      gateways.push(gateway);
      await gateway.waitFor(`http://127.0.0.1:${port}/health/ready`, 120_000);
    }
    await sleep(5_000);
    const rows: string[] = [];
    const asked: string[] = [];
    for (const phase of ['default flow', `burst of ${burst} updates/s`]) {
      if (phase !== 'default flow') await setBurst(sandbox.url, burst);
      await sleep(2_000);
      progress(`recording: ${phase}, ${seconds} s`);
      const cpu = gateways.map((gateway) => gateway.cpuSeconds());
      const sandboxCpu = sandbox.process.cpuSeconds();
      const bytes = directoryBytes(dir);
      await sleep(seconds * 1_000);
      const cores = gateways.map((gateway, index) => (gateway.cpuSeconds() - cpu[index]) / seconds);
      const sandboxCores = (sandbox.process.cpuSeconds() - sandboxCpu) / seconds;
      const bytesPerHour = ((directoryBytes(dir) - bytes) / seconds) * HOUR_S;
      rows.push(
        `| ${phase} | ${cores[0].toFixed(3)} | ${cores[1].toFixed(3)} | ${(cores[0] - cores[1]).toFixed(3)} | ` +
          `${(cores[0] / cores[1]).toFixed(2)} | ${(bytesPerHour / MIB).toFixed(1)} | ${sandboxCores.toFixed(2)} | ` +
          `${loadavg()[0].toFixed(2)} |`,
      );
      asked.push(await askedAtTheEnd(dir, phase, bytesPerHour));
    }
    await setBurst(sandbox.url, 0);
    process.stdout.write(
      [
        `recording: ${describeMachine()}; ${seconds} s a phase`,
        '',
        '| flow | recording gateway, cores | plain gateway, cores | recorder, cores | ratio | recorded MiB an hour | sandbox, cores | load (1 min) |',
        '|---|---|---|---|---|---|---|---|',
        ...rows,
        '',
        ...asked,
        '',
      ].join('\n'),
    );
  } finally {
    for (const gateway of gateways) await gateway.stop();
    await sandbox.process.stop();
    if (!values['keep-dir']) rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * book-at of the phase's last moment, while the gateway records on: the worst case, its whole file
 * replayed from the checkpoint. The time grows with the bytes replayed; a file holds ten minutes.
 */
async function askedAtTheEnd(dir: string, phase: string, bytesPerHour: number): Promise<string> {
  const started = performance.now();
  const answer = await bookAt(dir, 'btc_usdt', Date.now());
  const ms = performance.now() - started;
  const mib = statSync(answer.file).size / MIB;
  const wholeFile = bytesPerHour / 6 / MIB;
  return (
    `book-at at the end of the ${phase}: ${ms.toFixed(0)} ms replaying ${mib.toFixed(2)} MiB ` +
    `(book version ${answer.book.version}, ${answer.book.bids.length + answer.book.asks.length} levels); ` +
    `a whole 10-minute file at this flow, ${wholeFile.toFixed(1)} MiB: about ${((ms / mib) * wholeFile).toFixed(0)} ms ` +
    `(load ${loadavg()[0].toFixed(2)})`
  );
}

function directoryBytes(dir: string): number {
  return readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
