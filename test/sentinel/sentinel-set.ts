import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { waitFor } from '../support/fault-run';
import { freePort } from '../support/redis-server';

export const PRIMARY_NAME = 'mymaster';

/** One process of the set: a data node or a Sentinel. */
export interface SetProcess {
  readonly port: number;
  /** Kills the process (SIGKILL), as a crash would; nothing if it is not running. */
  kill(): Promise<void>;
  /**
   * Kills it if it runs and starts it again on its port with its first arguments. A data node comes
   * back empty, and the Sentinels make it a replica of the primary they name.
   */
  restart(): Promise<void>;
}

/**
 * Data nodes take DEBUG SLEEP from loopback clients, to stall a primary as a long command would. A
 * full sync starts at once: by default a primary waits 5 s for more replicas to share it, on every
 * replica that joins, a killed node started again empty among them.
 */
const DATA_NODE_ARGS = [
  '--save',
  '',
  '--appendonly',
  'no',
  '--enable-debug-command',
  'local',
  '--repl-diskless-sync-delay',
  '0',
];

/**
 * One primary, two replicas and three Sentinels on free loopback ports, without persistence. The
 * Sentinels declare a primary down after `downAfterMs` and fail over; every process is killed by
 * `stop()` or when the test process exits.
 */
export class SentinelSet {
  private constructor(
    private readonly dir: string,
    readonly nodes: SetProcess[],
    readonly sentinels: SetProcess[],
  ) {}

  static async start(options: { downAfterMs?: number } = {}): Promise<SentinelSet> {
    const dir = mkdtempSync(join(tmpdir(), 'mdg-sentinel-set-'));
    const nodes: SetProcess[] = [];
    const sentinels: SetProcess[] = [];
    const set = new SentinelSet(dir, nodes, sentinels);
    try {
      const primary = await startProcess([...DATA_NODE_ARGS, '--dir', dir]);
      nodes.push(primary);
      for (let replica = 0; replica < 2; replica += 1) {
        nodes.push(
          await startProcess([
            ...DATA_NODE_ARGS,
            '--dir',
            dir,
            '--replicaof',
            '127.0.0.1',
            String(primary.port),
          ]),
        );
      }
      await waitFor(async () => (await replicasInSync(primary.port)) === 2, 'both replicas in sync', 15_000);
      for (let sentinel = 0; sentinel < 3; sentinel += 1) {
        const file = join(dir, `sentinel-${sentinel}.conf`);
        writeFileSync(
          file,
          [
            `sentinel monitor ${PRIMARY_NAME} 127.0.0.1 ${primary.port} 2`,
            `sentinel down-after-milliseconds ${PRIMARY_NAME} ${options.downAfterMs ?? 1_000}`,
            `sentinel failover-timeout ${PRIMARY_NAME} 5000`,
            `sentinel parallel-syncs ${PRIMARY_NAME} 2`,
            '',
          ].join('\n'),
        );
        sentinels.push(await startProcess([], file));
      }
      // Every Sentinel knows both replicas and the others before a test may fail the primary over.
      await waitFor(
        async () => (await Promise.all(sentinels.map((s) => sentinelSees(s.port)))).every(Boolean),
        'the Sentinels know each other and the replicas',
        20_000,
        100,
      );
      return set;
    } catch (error) {
      await set.stop();
      throw error;
    }
  }

  /** `host:port,...` of the Sentinels, as `REDIS_SENTINELS` takes them. */
  get sentinelList(): string {
    return this.sentinels.map((sentinel) => `127.0.0.1:${sentinel.port}`).join(',');
  }

  /** The data node the Sentinels name as primary now. */
  async primary(): Promise<SetProcess> {
    const admin = new Redis(this.sentinels[0].port, '127.0.0.1', {
      maxRetriesPerRequest: 0,
      lazyConnect: true,
    });
    try {
      const [, port] = (await admin.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', PRIMARY_NAME)) as string[];
      const node = this.nodes.find((candidate) => candidate.port === Number(port));
      if (!node) throw new Error(`the Sentinels name an unknown primary on port ${port}`);
      return node;
    } finally {
      admin.disconnect();
    }
  }

  /** Waits until the Sentinels name a primary other than `old`, that accepts writes. */
  async untilFailedOver(old: SetProcess, timeoutMs = 30_000): Promise<SetProcess> {
    let current = old;
    await waitFor(
      async () => {
        current = await this.primary().catch(() => old);
        return current !== old && (await role(current.port)) === 'master';
      },
      'a replica promoted',
      timeoutMs,
      100,
    );
    return current;
  }

  /** Waits until every Sentinel names `node` as the primary, so that none sends a client elsewhere. */
  async untilAllName(node: SetProcess, timeoutMs = 30_000): Promise<void> {
    await waitFor(
      async () =>
        (await Promise.all(this.sentinels.map((sentinel) => primaryPortOf(sentinel.port)))).every(
          (port) => port === node.port,
        ),
      `every Sentinel naming port ${node.port}`,
      timeoutMs,
      100,
    );
  }

  /**
   * Waits until every Sentinel names the same primary, which accepts writes and streams to both
   * other nodes: a node restarted after a kill is a replica again only once the Sentinels turned it.
   */
  async untilSettled(timeoutMs = 60_000): Promise<void> {
    await waitFor(
      async () => {
        const named = await Promise.all(this.sentinels.map((sentinel) => primaryPortOf(sentinel.port)));
        if (named[0] === undefined || named.some((port) => port !== named[0])) return false;
        return (await role(named[0])) === 'master' && (await replicasInSync(named[0])) === 2;
      },
      'one primary, streaming to both replicas',
      timeoutMs,
      200,
    );
  }

  /** `SENTINEL FAILOVER`: promotes a replica while the primary still runs. */
  async forceFailover(): Promise<void> {
    const admin = new Redis(this.sentinels[0].port, '127.0.0.1', { maxRetriesPerRequest: 0 });
    try {
      await admin.call('SENTINEL', 'FAILOVER', PRIMARY_NAME);
    } finally {
      admin.disconnect();
    }
  }

  /** A plain connection to one data node, for the test's own checks. */
  connect(node: SetProcess): Redis {
    return new Redis(node.port, '127.0.0.1', { maxRetriesPerRequest: 0 });
  }

  async stop(): Promise<void> {
    await Promise.all([...this.sentinels, ...this.nodes].map((process) => process.kill()));
    rmSync(this.dir, { recursive: true, force: true });
  }
}

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

async function startProcess(args: readonly string[], sentinelConfig?: string): Promise<SetProcess> {
  const port = await freePort();
  const argv = [
    ...(sentinelConfig ? [sentinelConfig, '--sentinel'] : []),
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--loglevel',
    'warning',
    ...args,
  ];
  const launch = async (): Promise<ChildProcess> => {
    const child = spawn('redis-server', argv, { stdio: 'ignore' });
    running.add(child);
    child.once('exit', () => running.delete(child));
    await waitFor(() => answersPing(port), `redis on port ${port} answering`, 10_000);
    return child;
  };
  let child = await launch();
  const kill = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  };
  return {
    port,
    kill,
    restart: async () => {
      await kill();
      child = await launch();
    },
  };
}

async function withConnection<T>(port: number, use: (client: Redis) => Promise<T>): Promise<T | undefined> {
  const client = new Redis(port, '127.0.0.1', {
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: 1_000,
    commandTimeout: 1_000,
    lazyConnect: true,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return await use(client);
  } catch {
    return undefined;
  } finally {
    // Ended by a failed attempt, it has nothing to close; a disconnect would arm ioredis' 2 s timer.
    if (client.status !== 'end') client.disconnect();
  }
}

async function answersPing(port: number): Promise<boolean> {
  return (await withConnection(port, (client) => client.ping())) === 'PONG';
}

async function role(port: number): Promise<string | undefined> {
  return withConnection(port, async (client) => ((await client.call('ROLE')) as string[])[0]);
}

async function replicasInSync(port: number): Promise<number> {
  const info = await withConnection(port, (client) => client.info('replication'));
  // Replicas still loading the primary's snapshot are connected but not yet in sync.
  return (info ?? '').split('\n').filter((line) => /^slave\d+:.*state=online/.test(line)).length;
}

async function primaryPortOf(sentinelPort: number): Promise<number | undefined> {
  const address = await withConnection(
    sentinelPort,
    async (client) => (await client.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', PRIMARY_NAME)) as string[],
  );
  return address ? Number(address[1]) : undefined;
}

async function sentinelSees(port: number): Promise<boolean> {
  const primary = await withConnection(
    port,
    async (client) => (await client.call('SENTINEL', 'MASTER', PRIMARY_NAME)) as string[],
  );
  if (!primary) return false;
  const field = (name: string) => Number(primary[primary.indexOf(name) + 1]);
  return field('num-slaves') === 2 && field('num-other-sentinels') === 2;
}
