import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import Redis from 'ioredis';
import { startRedisServer, TestRedisServer } from './redis-server';

const run = promisify(execFile);

export interface TestRedisCluster {
  /** `redis://127.0.0.1:port` of every node; any of them is a seed. */
  readonly urls: readonly string[];
  readonly nodes: readonly TestRedisServer[];
  stop(): Promise<void>;
}

/**
 * A private Redis Cluster of `size` masters on loopback, slots spread by `redis-cli --cluster create`,
 * ready when every node reports `cluster_state:ok`.
 */
export async function startRedisCluster(size = 3): Promise<TestRedisCluster> {
  const nodes: TestRedisServer[] = [];
  try {
    for (let i = 0; i < size; i++) {
      nodes.push(
        await startRedisServer({
          args: [
            '--cluster-enabled',
            'yes',
            '--cluster-config-file',
            `nodes-{port}-${process.pid}.conf`,
            '--cluster-node-timeout',
            '2000',
          ],
        }),
      );
    }
    const addresses = nodes.map((node) => node.url.replace('redis://', ''));
    await run('redis-cli', ['--cluster', 'create', ...addresses, '--cluster-replicas', '0', '--cluster-yes']);
    for (const node of nodes) await untilClusterOk(node.url);
  } catch (error) {
    await Promise.all(nodes.map((node) => node.stop()));
    throw error;
  }
  return {
    urls: nodes.map((node) => node.url),
    nodes,
    stop: async () => {
      await Promise.all(nodes.map((node) => node.stop()));
    },
  };
}

async function untilClusterOk(url: string): Promise<void> {
  const client = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const info = String(await client.call('CLUSTER', 'INFO'));
      if (info.includes('cluster_state:ok')) return;
      if (Date.now() > deadline) throw new Error(`cluster not ok at ${url}: ${info}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    client.disconnect();
  }
}
