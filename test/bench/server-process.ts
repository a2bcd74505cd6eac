import { ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { processCpuSeconds } from './bench-process';

/** First message of a server process: where it listens. */
export interface ServerReady {
  readonly url: string;
}

export interface StartOptions {
  /** Environment on top of this process's. */
  readonly env?: Record<string, string>;
  /** Node options, e.g. `--cpu-prof`. */
  readonly nodeOptions?: readonly string[];
  /** First message to the process, before it listens. */
  readonly init?: unknown;
}

/** Message that asks a server process to close and exit. */
export const CLOSE = 'close';

/**
 * A server (the gateway, its bare peer, the sandbox exchange) in a process of its own, so that it
 * has an event loop to itself and shares none with the load generator in the parent. `pause()`
 * freezes it (SIGSTOP) while the other server is measured: on two cores, one server under test and
 * the load generator are all that should run.
 */
export class ServerProcess {
  private paused = false;

  private constructor(
    readonly name: string,
    private readonly child: ChildProcess,
    readonly url: string,
  ) {}

  /**
   * Forks `script` (TypeScript, run through the same swc hook), sends it `options.init` if given,
   * and waits for its `ServerReady`.
   */
  static async start(name: string, script: string, options: StartOptions = {}): Promise<ServerProcess> {
    const child = fork(join(__dirname, script), [], {
      execArgv: [...(options.nodeOptions ?? []), '-r', join(__dirname, 'swc-register.js')],
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    if (options.init !== undefined) child.send(options.init as object);
    const { url } = await new Promise<ServerReady>((resolve, reject) => {
      child.once('message', (message) => resolve(message as ServerReady));
      child.once('exit', (code) =>
        reject(new Error(`${name} exited with ${String(code)} before it was ready`)),
      );
    });
    return new ServerProcess(name, child, url);
  }

  pause(): void {
    if (this.paused) return;
    this.child.kill('SIGSTOP');
    this.paused = true;
  }

  resume(): void {
    if (!this.paused) return;
    this.child.kill('SIGCONT');
    this.paused = false;
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  /** CPU time the process has used so far, in seconds (user and system; Linux only, else NaN). */
  cpuSeconds(): number {
    try {
      return processCpuSeconds(this.pid);
    } catch {
      return Number.NaN;
    }
  }

  async close(): Promise<void> {
    this.resume();
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = once(this.child, 'exit');
    this.child.send(CLOSE);
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
}

/** `getconf CLK_TCK`: 100 on every Linux that Node runs on. */
