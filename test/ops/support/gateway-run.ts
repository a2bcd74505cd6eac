import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { Tuning } from '../../../src/config/tuning';
import { gatewayEntry } from '../../support/gateway-entry';
import { freePort } from '../../support/redis-server';

const ROOT = join(__dirname, '..', '..', '..');

/** The real build (`node dist/main.js`) in a process of its own, with everything it printed. */
export interface GatewayRun {
  readonly url: string;
  readonly pid: number;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (null when killed by a signal) once the process has exited. */
  readonly exit: Promise<number | null>;
  /** How it ended, with its last output lines: what a test expecting a clean exit shows when it was not. */
  ending(): Promise<{ code: number | null; signal: NodeJS.Signals | null; lastLines: string[] }>;
  readonly exited: boolean;
  signal(signal: NodeJS.Signals): void;
  /** Kills it (SIGKILL) if still running; for clean-up after a failed test. */
  kill(): Promise<void>;
}

const running = new Set<ChildProcess>();
process.once('exit', () => running.forEach((child) => child.kill('SIGKILL')));

/**
 * Starts `node dist/main.js` on a free port with `env` on top of a minimal environment (with
 * `tuning`, the test entry of the build that passes it in).
 */
export async function runGateway(env: Record<string, string>, tuning?: Partial<Tuning>): Promise<GatewayRun> {
  const port = await freePort();
  const child = spawn(process.execPath, gatewayEntry(tuning), {
    cwd: ROOT,
    env: { PATH: process.env.PATH, TZ: 'UTC', HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let exited = false;
  const ended = once(child, 'exit').then(([code, signal]) => {
    exited = true;
    running.delete(child);
    return { code: code as number | null, signal: signal as NodeJS.Signals | null };
  });
  const exit = ended.then(({ code }) => code);
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    stdout: () => stdout,
    stderr: () => stderr,
    exit,
    ending: async () => ({
      ...(await ended),
      lastLines: `${stdout}${stderr}`.trimEnd().split('\n').slice(-8),
    }),
    get exited() {
      return exited;
    },
    signal: (signal) => void child.kill(signal),
    kill: async () => {
      if (!running.has(child)) return;
      child.kill('SIGKILL');
      await exit;
    },
  };
}

/** Waits for `run` to end; fails with its last output lines unless it exited with status 0. */
export async function expectCleanExit(run: GatewayRun): Promise<void> {
  const { code, signal, lastLines } = await run.ending();
  if (code !== 0) {
    throw new Error(`exited with status ${code} (signal ${signal}); last lines:\n${lastLines.join('\n')}`);
  }
}

/** Polls `url` until it answers with `status`; fails after `timeoutMs` with what the process printed. */
export async function waitForStatus(
  run: GatewayRun,
  path: string,
  status: number,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const response = await fetch(`${run.url}${path}`, { signal: AbortSignal.timeout(1_000) });
      await response.arrayBuffer();
      if (response.status === status) return;
    } catch {
      // not up yet
    }
    if (run.exited || Date.now() > deadline) {
      throw new Error(
        `${path} did not answer ${status} within ${timeoutMs} ms:\n${run.stdout()}\n${run.stderr()}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
