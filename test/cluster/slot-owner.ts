import Redis from 'ioredis';
import { TestRedisCluster } from '../support/redis-cluster';

/** The index in `cluster.nodes` of the master that serves `key`'s slot, as the cluster reports it. */
export async function ownerOf(cluster: TestRedisCluster, key: string): Promise<number> {
  const client = new Redis(cluster.urls[0], { maxRetriesPerRequest: 0 });
  try {
    const slot = Number(await client.call('CLUSTER', 'KEYSLOT', key));
    const ranges = (await client.call('CLUSTER', 'SLOTS')) as [
      number,
      number,
      [string, number, ...unknown[]],
    ][];
    const range = ranges.find(([from, to]) => from <= slot && slot <= to);
    if (!range) throw new Error(`no node serves slot ${slot}`);
    const [, , [host, port]] = range;
    const index = cluster.urls.indexOf(`redis://${host}:${port}`);
    if (index < 0) throw new Error(`slot ${slot} is served by ${host}:${port}, not a node of this cluster`);
    return index;
  } finally {
    client.disconnect();
  }
}
