import type Redis from 'ioredis';
import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Tuning } from '../../src/config/tuning';
import { gatewayEntry } from '../support/gateway-entry';
import { parseMetrics } from '../support/metrics-text';
import { freePort } from '../support/redis-server';

/** The build every benchmark runs: what production runs. */
export const MAIN_SCRIPT = join(__dirname, '..', '..', 'dist', 'main.js');

const CLOCK_TICKS_PER_SECOND = 100;
const PAGE_BYTES = 4096;

export interface MainProcessOptions {
  /** The service's environment (ROLE, ports, upstream...), on top of a quiet log level. */
  readonly env: Record<string, string>;
  /** Node options, e.g. `--cpu-prof`. */
  readonly nodeOptions?: readonly string[];
  /** The gateway's tuning on top of the production defaults (see `gatewayEntry`). */
  readonly tuning?: Partial<Tuning>;
}

/**
 * One `node dist/main.js` process (the gateway in some role, or the sandbox exchange), started the
 * way a deployment starts it: its own process, configured by the environment only. Stderr is kept
 * (the last few KB) for the error message when it dies.
 */
export class MainProcess {
  readonly startedAt: number;
  private output = '';

  private constructor(
    readonly name: string,
    private readonly child: ChildProcess,
  ) {
    this.startedAt = performance.now();
    const collect = (chunk: Buffer): void => {
      this.output = (this.output + chunk.toString()).slice(-8_000);
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
  }

  static spawn(name: string, options: MainProcessOptions): MainProcess {
    if (!existsSync(MAIN_SCRIPT)) throw new Error(`${MAIN_SCRIPT} is missing: run \`npm run build\` first`);
    const child = spawn(process.execPath, [...(options.nodeOptions ?? []), ...gatewayEntry(options.tuning)], {
      env: { ...process.env, LOG_LEVEL: 'warn', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return new MainProcess(name, child);
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  get exited(): boolean {
    return this.child.exitCode !== null || this.child.signalCode !== null;
  }

  /** The last lines the process wrote, for error messages. */
  recentOutput(): string {
    return this.output.trim().split('\n').slice(-15).join('\n');
  }

  /** Waits until `url` answers 200 (or `accept` says yes); throws when the process dies or time runs out. */
  async waitFor(
    url: string,
    timeoutMs: number,
    accept = (status: number) => status === 200,
  ): Promise<number> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      if (this.exited) throw new Error(`${this.name} exited:\n${this.recentOutput()}`);
      const status = await fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
        async (response) => {
          await response.arrayBuffer();
          return response.status;
        },
        () => 0,
      );
      if (accept(status)) return performance.now();
      if (performance.now() > deadline)
        throw new Error(
          `${this.name}: ${url} did not answer within ${timeoutMs} ms:\n${this.recentOutput()}`,
        );
      await sleep(50);
    }
  }

  /** CPU time the process has used so far, in seconds (user and system). */
  cpuSeconds(): number {
    return processCpuSeconds(this.pid);
  }

  /** Resident set size now, in bytes. */
  rssBytes(): number {
    return Number(statFields(this.pid)[21]) * PAGE_BYTES;
  }

  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process has exited. */
  async stop(graceMs = 10_000): Promise<void> {
    if (this.exited) return;
    const exited = once(this.child, 'exit');
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  }
}

/** CPU time a process has used so far, in seconds: user and system (Linux). */
export function processCpuSeconds(pid: number): number {
  const fields = statFields(pid);
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}

/** Redis' CPU time so far, in seconds: user and system of all its threads (`INFO cpu`). */
export async function redisCpuSeconds(client: Redis): Promise<number> {
  const info = await client.info('cpu');
  const field = (name: string): number =>
    Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1] ?? NaN);
  return field('used_cpu_user') + field('used_cpu_sys');
}

/** The fields of /proc/{pid}/stat after the command name (Linux): utime and stime, the 14th and 15th of the line, at 11 and 12. */
function statFields(pid: number): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** A sandbox exchange as its own process (`ROLE=sandbox`), on a free loopback port. */
export async function startSandboxProcess(
  env: Record<string, string>,
  readyTimeoutMs = 120_000,
  nodeOptions: readonly string[] = [],
): Promise<{ process: MainProcess; url: string }> {
  const port = await freePort();
  const sandbox = MainProcess.spawn('sandbox', {
    env: { ROLE: 'sandbox', HOST: '127.0.0.1', SANDBOX_PORT: String(port), ...env },
    nodeOptions,
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await sandbox.waitFor(`${url}/sandbox/flow`, readyTimeoutMs);
  } catch (error) {
    await sandbox.stop();
    throw error;
  }
  return { process: sandbox, url };
}

/**
 * The gateway's environment for ingesting from `upstreamUrl` (the sandbox, logged in as its demo
 * user) and serving on `port` with the API's rate limit off, so that a benchmark's polling is not limited.
 */
export function gatewayEnv(upstreamUrl: string, port: number): Record<string, string> {
  return {
    HOST: '127.0.0.1',
    PORT: String(port),
    RATE_LIMIT_PER_MINUTE: '0',
    UPSTREAM_BASE_URL: upstreamUrl,
    UPSTREAM_EMAIL: 'demo@example.com',
    UPSTREAM_PASSWORD: 'demo',
  };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The p-th percentile (0-100) of `values` by nearest rank; NaN when empty. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

/** A benchmark's `--name` option as a positive integer; a clear error otherwise. */
export function positive(text: string, name: string): number {
  const parsed = Number(text);
  if (!Number.isInteger(parsed) || parsed <= 0) throw new Error(`--${name}: a positive integer, not ${text}`);
  return parsed;
}

/**
 * The least V8 heap in use over `samples` reads of a gateway's /metrics, `gapMs` apart: the read
 * closest to what survives a collection (a process cannot be asked for one), where a single read
 * carries whatever garbage the collector had not yet taken. NaN when the metric is missing.
 */
export async function leastHeapUsedBytes(url: string, samples: number, gapMs: number): Promise<number> {
  let least = Number.POSITIVE_INFINITY;
  for (let sample = 0; sample < samples; sample++) {
    if (sample > 0) await sleep(gapMs);
    const metrics = parseMetrics(await (await fetch(`${url}/metrics`)).text());
    const heap = metrics.find((metric) => metric.name === 'mdg_nodejs_heap_size_used_bytes');
    least = Math.min(least, heap?.value ?? Number.NaN);
  }
  return least;
}

export function progress(message: string): void {
  process.stderr.write(`${message}\n`);
}

export { freePort };
