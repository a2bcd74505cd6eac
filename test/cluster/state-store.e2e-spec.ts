import { randomUUID } from 'node:crypto';
import { Cluster } from 'ioredis';
import { createRedisClient, RedisLocation, reportConnectionErrors } from '../../src/store/redis-connection';
import { RedisStateStore } from '../../src/store/redis-state-store';
import { InstrumentWrite } from '../../src/store/state-store';
import { describeStateStoreContract, eventually, head } from '../../src/store/testing/state-store-contract';
import { redisStoreUnderTest } from '../store/redis-store-under-test';
import { startRedisCluster, TestRedisCluster } from '../support/redis-cluster';
import { ownerOf } from './slot-owner';

let cluster: TestRedisCluster;
let location: RedisLocation;

beforeAll(async () => {
  cluster = await startRedisCluster();
  // One node is enough: the client discovers the others.
  location = { REDIS_URL: cluster.urls[1], REDIS_CLUSTER: true };
});

afterAll(async () => {
  await cluster?.stop();
});

/** Stores of one test on one prefix, each with its own cluster connection as `StoreModule` builds it. */
class ClusterStores {
  readonly prefix = `cluster-${randomUUID().slice(0, 8)}`;
  readonly warnings: string[] = [];
  readonly admin: Cluster;
  private readonly stores: RedisStateStore[] = [];

  constructor() {
    this.admin = createRedisClient(location, { commands: 'wait' }) as Cluster;
    this.admin.on('error', () => undefined);
  }

  async open(): Promise<RedisStateStore> {
    const logger = { warn: (message: string) => this.warnings.push(message) };
    const client = createRedisClient(location, { maxReconnectDelayMs: 100 });
    expect(client).toBeInstanceOf(Cluster);
    reportConnectionErrors(client, logger, 'Redis Cluster');
    const store = new RedisStateStore(client, { prefix: this.prefix, logger, closeClient: true });
    this.stores.push(store);
    await store.ready();
    return store;
  }

  async close(): Promise<void> {
    await Promise.all(this.stores.map((store) => store.close()));
    this.admin.disconnect();
  }
}

describeStateStoreContract('RedisStateStore on a Redis Cluster', () =>
  redisStoreUnderTest(new ClusterStores()),
);

/** Instruments whose hash tags fall on every node of a three-node cluster. */
const INSTRUMENTS = [
  'btc',
  'eth',
  'ltc',
  'xrp',
  'doge',
  'ada',
  'sol',
  'dot',
  'trx',
  'bnb',
  'avax',
  'link',
].flatMap((base) => [`${base}_usdt`, `${base}_btc`]);

const write = (instrument: string, version: number): InstrumentWrite => ({
  instrument,
  replace: true,
  head: head(instrument, version),
  levels: { bids: [['100', String(version)]], asks: [] },
});

describe('RedisStateStore on a Redis Cluster', () => {
  let stores: ClusterStores;

  beforeEach(() => {
    stores = new ClusterStores();
  });

  afterEach(async () => {
    await stores.close();
  });

  it('spreads instruments over every node and reads them back in one call', async () => {
    const store = await stores.open();
    await store.write(INSTRUMENTS.map((instrument) => write(instrument, 1)));
    const nodes = await Promise.all(
      INSTRUMENTS.map((instrument) => ownerOf(cluster, store.keys.instrument(instrument).head)),
    );
    expect(new Set(nodes).size).toBe(cluster.nodes.length);
    const heads = await store.readHeads(INSTRUMENTS);
    expect([...heads.keys()].sort()).toEqual([...INSTRUMENTS].sort());
  });

  it('gets over the restart of a node: writes succeed again, and the other nodes kept their data', async () => {
    const store = await stores.open();
    await store.write(INSTRUMENTS.map((instrument) => write(instrument, 1)));
    const nodes = await Promise.all(
      INSTRUMENTS.map((instrument) => ownerOf(cluster, store.keys.instrument(instrument).head)),
    );
    const restarted = nodes[0];
    const lost = INSTRUMENTS.filter((_, index) => nodes[index] === restarted);
    const kept = INSTRUMENTS.filter((_, index) => nodes[index] !== restarted);

    // Without persistence the node comes back empty, with its slots from its cluster config file.
    await cluster.nodes[restarted].restart();
    await eventually(async () => {
      await expect(store.write(lost.map((instrument) => write(instrument, 2)))).resolves.toHaveLength(
        lost.length,
      );
    }, 15_000);
    expect((await store.readBook(lost[0]))?.bids).toEqual([['100', '2']]);
    expect((await store.readBook(kept[0]))?.bids).toEqual([['100', '1']]);
    const heads = await store.readHeads(INSTRUMENTS);
    expect(heads.size).toBe(INSTRUMENTS.length);
  });
});
