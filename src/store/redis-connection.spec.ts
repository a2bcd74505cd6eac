import Redis, { Cluster } from 'ioredis';
import { RedisClient } from './redis-client';
import { bullmqPrefix, clusterSeed, createRedisClient } from './redis-connection';

/** Ends a client that never connected; only its options are of interest. */
function built(client: RedisClient): RedisClient {
  client.disconnect();
  return client;
}

describe('createRedisClient', () => {
  // No connection at all: a Sentinel client's failed attempt leaves ioredis a two-second timer behind.
  beforeEach(() => {
    jest.spyOn(Redis.prototype, 'connect').mockResolvedValue(undefined);
    jest.spyOn(Cluster.prototype, 'connect').mockResolvedValue(undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  const standalone = { REDIS_URL: 'redis://127.0.0.1:1', REDIS_CLUSTER: false };
  const cluster = { REDIS_URL: 'redis://user:secret@127.0.0.1:1', REDIS_CLUSTER: true };

  it('builds a Redis with the fail-fast policy by default', () => {
    const client = built(createRedisClient(standalone, { commandTimeoutMs: 900, connectionName: 'x' }));
    expect(client).toBeInstanceOf(Redis);
    expect((client as Redis).options).toMatchObject({
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: 900,
      connectionName: 'x',
      port: 1,
    });
  });

  it('builds a Redis that waits out outages for BullMQ workers', () => {
    const client = built(createRedisClient(standalone, { commands: 'wait' }));
    const options = (client as Redis).options;
    expect(options).toMatchObject({ enableOfflineQueue: true, maxRetriesPerRequest: null });
    expect(options.commandTimeout).toBeUndefined();
  });

  it('builds a Cluster seeded with the node of the URL, its credentials applying to every node', () => {
    const client = built(createRedisClient(cluster));
    expect(client).toBeInstanceOf(Cluster);
    const options = (client as Cluster).options;
    expect(options.enableOfflineQueue).toBe(false);
    expect(options.redisOptions).toMatchObject({
      maxRetriesPerRequest: 0,
      commandTimeout: 5000,
      username: 'user',
      password: 'secret',
    });
  });

  it('builds a waiting Cluster', () => {
    const options = (built(createRedisClient(cluster, { commands: 'wait' })) as Cluster).options;
    expect(options.enableOfflineQueue).toBe(true);
    expect(options.redisOptions).toMatchObject({ maxRetriesPerRequest: null, password: 'secret' });
    expect(options.redisOptions?.commandTimeout).toBeUndefined();
  });

  it('builds a Redis that reaches the primary through the Sentinels, credentials from the URL', () => {
    const sentinel = {
      REDIS_URL: 'redis://:data-secret@ignored:1/2',
      REDIS_CLUSTER: false,
      REDIS_SENTINELS: '127.0.0.1:1,127.0.0.1:2',
      REDIS_SENTINEL_NAME: 'books',
      REDIS_SENTINEL_PASSWORD: 'sentinel-secret',
    };
    const client = built(createRedisClient(sentinel, { commandTimeoutMs: 700 }));
    expect(client).toBeInstanceOf(Redis);
    const options = (client as Redis).options;
    expect(options).toMatchObject({
      sentinels: [
        { host: '127.0.0.1', port: 1 },
        { host: '127.0.0.1', port: 2 },
      ],
      name: 'books',
      role: 'master',
      password: 'data-secret',
      sentinelPassword: 'sentinel-secret',
      db: 2,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: 700,
    });
    expect(
      options.reconnectOnError?.(new Error("READONLY You can't write against a read only replica.")),
    ).toBe(1);
    expect(options.reconnectOnError?.(new Error('WRONGTYPE'))).toBe(false);
  });

  it('times commands out after 5 s unless the caller says otherwise', () => {
    expect((built(createRedisClient(standalone)) as Redis).options.commandTimeout).toBe(5_000);
    const own = built(createRedisClient(standalone, { commandTimeoutMs: 300 })) as Redis;
    expect(own.options.commandTimeout).toBe(300);
  });

  it('needs REDIS_URL', () => {
    expect(() => createRedisClient({ REDIS_URL: undefined, REDIS_CLUSTER: false })).toThrow('REDIS_URL');
  });
});

describe('clusterSeed', () => {
  it('takes host, port, credentials and TLS from the URL', () => {
    expect(clusterSeed('rediss://me:p%40ss@[::1]:7000')).toEqual({
      node: { host: '::1', port: 7000 },
      redisOptions: { username: 'me', password: 'p@ss', tls: {} },
    });
    expect(clusterSeed('redis://:only-password@redis-0.local')).toEqual({
      node: { host: 'redis-0.local', port: 6379 },
      redisOptions: { password: 'only-password' },
    });
    expect(clusterSeed('redis://h:7001/0').node).toEqual({ host: 'h', port: 7001 });
  });

  it('refuses a database other than 0, which a cluster does not have', () => {
    expect(() => clusterSeed('redis://h:7001/2')).toThrow('only database 0');
  });
});

describe('bullmqPrefix', () => {
  it('is the key prefix, hash-tagged on a cluster', () => {
    expect(bullmqPrefix({ REDIS_PREFIX: 'mdg', REDIS_CLUSTER: false })).toBe('mdg');
    expect(bullmqPrefix({ REDIS_PREFIX: 'mdg', REDIS_CLUSTER: true })).toBe('{mdg}');
  });
});
