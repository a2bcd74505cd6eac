import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import Redis from 'ioredis';

/**
 * A Redis server for one test suite.
 *
 * By default a private `redis-server` (from PATH) on a free loopback port, without persistence, so
 * that `restart()` brings it back empty. Servers still running when the process exits are killed.
 *
 * When `REDIS_URL` is set, the suite uses that server instead and never starts or kills one.
 * `restart()` is then emulated: FLUSHALL, then every other client is disconnected, so that clients
 * reconnect to an empty server as after a real restart. That wipes the server, so point `REDIS_URL`
 * only at a server dedicated to the test run. `kill()` is not possible there: `canKill` is false
 * and suites skip their outage tests.
 */
export interface TestRedisServer {
  /** `redis://host:port[/db]` */
  readonly url: string;
  /** False when the server comes from `REDIS_URL`. */
  readonly canKill: boolean;
  /** Shuts the server down (SIGTERM) and waits for it to exit; nothing for `REDIS_URL`. */
  stop(): Promise<void>;
  /** Kills the server (SIGKILL), as a crash would, and waits for it to exit. */
  kill(): Promise<void>;
  /** Kills the server if it runs and starts it again, empty, on the same port; waits until it answers. */
  restart(): Promise<void>;
}

const running = new Set<ChildProcess>();
let exitHookInstalled = false;

export interface RedisServerOptions {
  /** More `redis-server` arguments, e.g. to enable cluster mode; always a private server then. */
  readonly args?: readonly string[];
}

export async function startRedisServer(options: RedisServerOptions = {}): Promise<TestRedisServer> {
  const external = process.env.REDIS_URL;
  if (external && !options.args) return externalServer(external);
  for (let attempt = 1; ; attempt += 1) {
    const port = await freePort();
    const args = (options.args ?? []).map((arg) => arg.replace('{port}', String(port)));
    try {
      return new PrivateRedisServer(port, args, await launch(port, args));
    } catch (error) {
      // Another process may have taken the port between the probe and the launch.
      if (attempt === 3) throw error;
    }
  }
}

class PrivateRedisServer implements TestRedisServer {
  readonly url: string;
  readonly canKill = true;

  constructor(
    private readonly port: number,
    private readonly args: readonly string[],
    private child: ChildProcess | undefined,
  ) {
    this.url = `redis://127.0.0.1:${port}`;
  }

  async stop(): Promise<void> {
    await this.end('SIGTERM');
  }

  async kill(): Promise<void> {
    await this.end('SIGKILL');
  }

  async restart(): Promise<void> {
    await this.end('SIGKILL');
    this.child = await launch(this.port, this.args);
  }

  private async end(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill(signal);
    await exited;
  }
}

function externalServer(url: string): TestRedisServer {
  return {
    url,
    canKill: false,
    stop: async () => undefined,
    kill: async () => {
      throw new Error('cannot kill the server of REDIS_URL; check canKill');
    },
    restart: async () => {
      const admin = new Redis(url, { maxRetriesPerRequest: 0 });
      try {
        await admin.flushall();
        await admin.call('CLIENT', 'KILL', 'TYPE', 'normal', 'SKIPME', 'yes');
        await admin.call('CLIENT', 'KILL', 'TYPE', 'pubsub', 'SKIPME', 'yes');
      } finally {
        admin.disconnect();
      }
    },
  };
}

async function launch(port: number, args: readonly string[]): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      tmpdir(),
      '--loglevel',
      'warning',
      ...args,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const collect = (chunk: Buffer): void => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  running.add(child);
  child.once('exit', () => running.delete(child));
  installExitHook();

  const exited = once(child, 'exit').then(() => {
    throw new Error(`redis-server on port ${port} exited at start: ${output.trim()}`);
  });
  try {
    await Promise.race([untilAnswering(port, 10_000), exited]);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return child;
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const child of running) child.kill('SIGKILL');
  });
}

async function untilAnswering(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await answersPing(port))) {
    if (Date.now() > deadline) throw new Error(`redis-server on port ${port} did not answer PING`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    let reply = '';
    const finish = (answered: boolean): void => {
      socket.destroy();
      resolve(answered);
    };
    socket.setTimeout(500, () => finish(false));
    socket.once('error', () => finish(false));
    socket.on('data', (chunk) => {
      reply += chunk.toString();
      if (reply.includes('\r\n')) finish(reply.startsWith('+PONG'));
    });
    socket.connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
  });
}

export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}
