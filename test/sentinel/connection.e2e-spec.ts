import { once } from 'node:events';
import Redis from 'ioredis';
import { loadConfig } from '../../src/config/load-config';
import { closeConnection, createRedisClient } from '../../src/store/redis-connection';
import { eventually } from '../../src/store/testing/state-store-contract';
import { PRIMARY_NAME, SentinelSet } from './sentinel-set';

/**
 * A connection through Sentinels also subscribes on each Sentinel, to hear of a failover at once
 * (ioredis' failover detector). Closed, it must let those subscriptions go: QUIT (how the store closes
 * a connection that is up, and BullMQ its own) ends the connection without its connector, and ioredis
 * alone would leave them open, reconnecting for good once the Sentinels are gone.
 */
let set: SentinelSet;

beforeAll(async () => {
  set = await SentinelSet.start();
}, 60_000);

afterAll(async () => {
  await set?.stop();
});

describe('a connection through Sentinels to data nodes without a password', () => {
  it('needs no REDIS_URL: the Sentinels name the primary, and it writes there', async () => {
    const config = loadConfig({
      ROLE: 'api',
      REDIS_SENTINELS: set.sentinelList,
      REDIS_SENTINEL_NAME: PRIMARY_NAME,
    });
    expect(config.REDIS_URL).toBeUndefined();
    const client = createRedisClient(config) as Redis;
    client.on('error', () => undefined);
    try {
      if (client.status !== 'ready') await once(client, 'ready');
      await client.set('sentinel-without-url', 'written');
      expect(((await client.call('ROLE')) as string[])[0]).toBe('master');
      expect(await client.get('sentinel-without-url')).toBe('written');
    } finally {
      await closeConnection(client);
    }
  });
});

describe('a connection through Sentinels, closed', () => {
  /** Clients subscribed on the Sentinels (`CLIENT LIST`, `sub=` above 0). */
  async function sentinelSubscribers(): Promise<number> {
    let count = 0;
    for (const sentinel of set.sentinels) {
      const admin = new Redis(sentinel.port, '127.0.0.1', { maxRetriesPerRequest: 0 });
      try {
        const list = (await admin.call('CLIENT', 'LIST')) as string;
        count += list.split('\n').filter((line) => /\bsub=[1-9]/.test(line)).length;
      } finally {
        admin.disconnect();
      }
    }
    return count;
  }

  /** A fail-fast connection refuses commands until it is ready. */
  async function ready(client: Redis): Promise<void> {
    if (client.status !== 'ready') await once(client, 'ready');
  }

  function connect(): Redis {
    const client = createRedisClient({
      REDIS_URL: 'redis://127.0.0.1:6379',
      REDIS_CLUSTER: false,
      REDIS_SENTINELS: set.sentinelList,
      REDIS_SENTINEL_NAME: PRIMARY_NAME,
    }) as Redis;
    client.on('error', () => undefined);
    return client;
  }

  it.each([
    ['closed by the store while it is up (QUIT)', false, closeConnection],
    ['disconnected', false, (client: Redis) => client.disconnect()],
    ['a duplicate closed with QUIT, as BullMQ closes its own', true, (client: Redis) => client.quit()],
  ])(
    '%s lets its failover subscriptions go',
    async (_how, duplicate, close) => {
      const first = connect();
      await ready(first);
      let connection = first;
      if (duplicate) {
        connection = first.duplicate();
        connection.on('error', () => undefined);
        first.disconnect();
      }
      await ready(connection);
      await eventually(async () => expect(await sentinelSubscribers()).toBe(set.sentinels.length));
      await close(connection);
      await eventually(async () => expect(await sentinelSubscribers()).toBe(0));
      expect(connection.status).toBe('end');
    },
    30_000,
  );
});
