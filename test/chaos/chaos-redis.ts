import { Tuning } from '../../src/config/tuning';
import Redis from 'ioredis';
import type { LegacyRedisOptions } from '../../src/store/redis-client';
import { StallAwareRedis } from '../../src/store/stall-aware-redis';
import { PRIMARY_NAME, SentinelSet } from '../sentinel/sentinel-set';
import { startRedisServer, TestRedisServer } from '../support/redis-server';
import type { NamedPrimary } from './lease-owner-watch';

/** `standalone`: one Redis server; `sentinel`: a primary, two replicas and three Sentinels. */
export type RedisTopology = 'standalone' | 'sentinel';

export type ChaosRedis =
  | { readonly topology: 'standalone'; readonly server: TestRedisServer }
  | { readonly topology: 'sentinel'; readonly set: SentinelSet };

/**
 * Lower than the default so that a command to a stalled primary fails within a request's patience
 * and the connection is made again through the Sentinels.
 */
const SENTINEL_COMMAND_TIMEOUT_MS = 1_000;

/** Starts the Redis the chaos run may kill: a private server, or a private Sentinel set. */
export async function startChaosRedis(topology: RedisTopology): Promise<ChaosRedis> {
  if (topology === 'sentinel') return { topology, set: await SentinelSet.start({ downAfterMs: 1_000 }) };
  const server = await startRedisServer();
  if (!server.canKill) {
    await server.stop();
    throw new Error('the chaos run kills Redis: unset REDIS_URL to give it a private one');
  }
  return { topology, server };
}

/** The settings that point a gateway process at the Redis. */
export function redisEnv(redis: ChaosRedis): Record<string, string> {
  if (redis.topology === 'standalone') return { REDIS_URL: redis.server.url };
  return {
    REDIS_URL: `redis://${PRIMARY_NAME}`,
    REDIS_SENTINELS: redis.set.sentinelList,
    REDIS_SENTINEL_NAME: PRIMARY_NAME,
  };
}

/** The tuning of a gateway process for the Redis: a short command timeout behind Sentinels. */
export function redisTuning(redis: ChaosRedis): Partial<Tuning> {
  return redis.topology === 'sentinel' ? { redisCommandTimeoutMs: SENTINEL_COMMAND_TIMEOUT_MS } : {};
}

export async function stopChaosRedis(redis: ChaosRedis): Promise<void> {
  if (redis.topology === 'standalone') await redis.server.stop();
  else await redis.set.stop();
}

/**
 * A connection of the run's own to the primary, found again through the Sentinels after a failover.
 * Commands fail at once while it is down, rather than wait in a queue and answer late. The gateway's
 * own kind of connection, as are those to the Sentinels below: closed while Redis is away, a plain
 * ioredis one would leave a 2 s timer holding the process.
 */
export function connectToPrimary(redis: ChaosRedis, commandTimeoutMs: number): Redis {
  const options: LegacyRedisOptions = {
    commandTimeout: commandTimeoutMs,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => 100,
  };
  const client =
    redis.topology === 'standalone'
      ? new StallAwareRedis(redis.server.url, options)
      : new StallAwareRedis({
          ...options,
          sentinels: redis.set.sentinels.map((sentinel) => ({ host: '127.0.0.1', port: sentinel.port })),
          name: PRIMARY_NAME,
        });
  client.on('error', () => undefined);
  return client;
}

/**
 * Where the Sentinels say the primary is: the port every one of them names, asked on connections kept
 * open, or `undefined` while they disagree (a failover spreading) or one does not answer in time.
 * Nothing for a standalone Redis, whose one server is always the primary.
 */
export function namedPrimary(redis: ChaosRedis, commandTimeoutMs: number): NamedPrimary | undefined {
  if (redis.topology === 'standalone') return undefined;
  const sentinels = redis.set.sentinels.map((sentinel) => {
    const client = new StallAwareRedis({
      host: '127.0.0.1',
      port: sentinel.port,
      commandTimeout: commandTimeoutMs,
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      retryStrategy: () => 100,
    });
    client.on('error', () => undefined);
    return client;
  });
  const portNamedBy = async (client: Redis): Promise<number | undefined> => {
    try {
      const address = (await client.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', PRIMARY_NAME)) as string[];
      return Number(address[1]);
    } catch {
      return undefined;
    }
  };
  return {
    port: async () => {
      const named = await Promise.all(sentinels.map(portNamedBy));
      return named.every((port) => port === named[0]) ? named[0] : undefined;
    },
    close: () => sentinels.forEach((client) => client.disconnect()),
  };
}
