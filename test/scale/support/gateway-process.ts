import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Tuning } from '../../../src/config/tuning';
import { gatewayEntry } from '../../support/gateway-entry';
import { freePort } from '../../support/redis-server';

const ROOT = join(__dirname, '..', '..', '..');
const MAIN = join(ROOT, 'dist', 'main.js');
const SANDBOX_ENTRY = join(ROOT, 'packages', 'sandbox-exchange', 'dist', 'index.js');

/** A gateway replica: the real build (`node dist/main.js`) in a process of its own. */
export interface GatewayProcess {
  /** Its INSTANCE_ID. */
  readonly name: string;
  readonly role: 'ingest' | 'api' | 'all';
  readonly url: string;
  readonly pid: number;
  /** The last lines it printed. */
  output(): string;
  /** True once the process has exited. */
  readonly exited: boolean;
  signal(signal: NodeJS.Signals): void;
  /** SIGTERM (a graceful shutdown), then SIGKILL if it has not exited within the wait. */
  stop(waitMs?: number): Promise<void>;
}

export interface GatewayProcessOptions {
  readonly role: 'ingest' | 'api' | 'all';
  readonly name: string;
  /** Settings of the replica, on top of HOST, PORT, ROLE, INSTANCE_ID and LOG_LEVEL. */
  readonly env: Record<string, string>;
  /** Tuning of the replica on top of the production defaults; none runs `dist/main.js` itself. */
  readonly tuning?: Partial<Tuning>;
}

/** Set, every replica's output is also kept whole in `{dir}/{name}-{pid}.log`, to read after a run. */
const LOG_DIR = process.env.GATEWAY_LOG_DIR;

const running = new Set<ChildProcess>();
let exitHookInstalled = false;

/** Attempts at a start whose port another process took between `freePort` and the child's listen. */
const PORT_ATTEMPTS = 3;

/** Starts a replica on a free port and resolves once it answers `/health/live`. */
export async function startGatewayProcess(options: GatewayProcessOptions): Promise<GatewayProcess> {
  assertBuildIsCurrent();
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnPort(options, await freePort());
    } catch (error) {
      // A port found free can be taken by a parallel suite before the child listens on it.
      if (!(error instanceof PortTakenError) || attempt === PORT_ATTEMPTS) throw error;
    }
  }
}

class PortTakenError extends Error {}

async function startOnPort(options: GatewayProcessOptions, port: number): Promise<GatewayProcess> {
  const child = spawn(process.execPath, gatewayEntry(options.tuning), {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      TZ: 'UTC',
      HOST: '127.0.0.1',
      PORT: String(port),
      ROLE: options.role,
      INSTANCE_ID: options.name,
      LOG_LEVEL: 'warn',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  track(child);
  let output = '';
  const collect = (chunk: Buffer): void => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  if (LOG_DIR) {
    mkdirSync(LOG_DIR, { recursive: true });
    const file = createWriteStream(join(LOG_DIR, `${options.name}-${child.pid}.log`));
    child.stdout!.pipe(file, { end: false });
    child.stderr!.pipe(file, { end: false });
    child.once('close', () => file.end());
  }
  let exited = false;
  const exit = once(child, 'exit').then(() => {
    exited = true;
  });
  const url = `http://127.0.0.1:${port}`;
  const process_: GatewayProcess = {
    name: options.name,
    role: options.role,
    url,
    pid: child.pid!,
    output: () => output,
    get exited() {
      return exited;
    },
    signal: (signal) => {
      if (!exited) child.kill(signal);
    },
    stop: async (waitMs = 10_000) => {
      if (exited) return;
      child.kill('SIGCONT');
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), waitMs);
      await exit;
      clearTimeout(timer);
    },
  };
  const deadline = Date.now() + 45_000;
  for (;;) {
    if (exited) {
      const message = `${options.name} exited at start:\n${output}`;
      throw output.includes('EADDRINUSE') ? new PortTakenError(message) : new Error(message);
    }
    if (await answers(`${url}/health/live`)) return process_;
    if (Date.now() > deadline) {
      await process_.stop(1_000);
      throw new Error(`${options.name} did not answer within 45 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(1_000) });
    return response.ok;
  } catch {
    return false;
  }
}

/** Processes still running when the test process exits (a failed suite) are killed, never orphaned. */
function track(child: ChildProcess): void {
  running.add(child);
  child.once('exit', () => running.delete(child));
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const orphan of running) orphan.kill('SIGKILL');
  });
}

/** The replicas run the build, the sandbox's included: one older than the sources would test yesterday's code. */
function assertBuildIsCurrent(): void {
  const builds = [
    { sources: join(ROOT, 'src'), entry: MAIN },
    { sources: join(ROOT, 'packages', 'sandbox-exchange', 'src'), entry: SANDBOX_ENTRY },
  ];
  for (const { sources, entry } of builds) {
    let built: number;
    try {
      built = statSync(entry).mtimeMs;
    } catch {
      throw new Error(`${entry} is missing: run npm run build first (npm test does)`);
    }
    const newest = newestSource(sources);
    if (newest.mtimeMs > built) {
      throw new Error(`${newest.path} is newer than ${entry}: run npm run build first (npm test does)`);
    }
  }
}

function newestSource(directory: string): { path: string; mtimeMs: number } {
  let newest = { path: directory, mtimeMs: 0 };
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    const candidate = entry.isDirectory()
      ? newestSource(path)
      : entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')
        ? { path, mtimeMs: statSync(path).mtimeMs }
        : newest;
    if (candidate.mtimeMs > newest.mtimeMs) newest = candidate;
  }
  return newest;
}
