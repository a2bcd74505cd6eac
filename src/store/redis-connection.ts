import Redis, { Cluster, ClusterOptions, RedisOptions } from 'ioredis';
import { AppConfig } from '../config/app-config';
import { LegacyRedisOptions, RedisClient } from './redis-client';
import { countRedisError } from './redis-errors';
import { describeRedisFailure, redisAddress } from './redis-failure';
import { sentinelOptions } from './redis-sentinels';
import { STALLED, StallAwareRedis } from './stall-aware-redis';
import { StoreLogger } from './store-logger';

export interface StoreConnectionOptions {
  /** Longest pause between two reconnection attempts; 2000 ms by default. */
  readonly maxReconnectDelayMs?: number;
  /** A command without a reply after this long is rejected; 5000 ms by default. */
  readonly commandTimeoutMs?: number;
  /** Shown by `CLIENT LIST`, to tell the gateway's connections apart. */
  readonly connectionName?: string;
}

/**
 * ioredis options for the store's data connection. They trade ioredis' default patience (queue
 * everything while disconnected, resend up to 20 times) for failing fast, because a writer that
 * sees its write rejected can coalesce and resend the newest state, while a queue would grow
 * without bound during an outage and later apply stale writes.
 */
export function storeRedisOptions(options: StoreConnectionOptions = {}): LegacyRedisOptions {
  return {
    // Commands issued while the connection is down reject at once instead of waiting in memory.
    enableOfflineQueue: false,
    // Commands in flight when the connection drops reject at the first reconnection attempt instead
    // of being resent later. Such a write may or may not have been applied; the writer resends.
    maxRetriesPerRequest: 0,
    // Never give up: a retry strategy that returns no number would end the client for good.
    retryStrategy: reconnectDelay(options.maxReconnectDelayMs ?? 2000),
    // A server that stops answering while the socket stays open (paused process, network
    // partition) would otherwise hold every command until TCP gives up, minutes later.
    commandTimeout: options.commandTimeoutMs ?? 5000,
    connectTimeout: 5000,
    connectionName: options.connectionName,
  };
}

/** The same policy for a Redis Cluster: no offline queue, no resends, endless capped reconnection. */
export function storeClusterOptions(options: StoreConnectionOptions = {}): ClusterOptions {
  return {
    enableOfflineQueue: false,
    clusterRetryStrategy: reconnectDelay(options.maxReconnectDelayMs ?? 2000),
    redisOptions: {
      maxRetriesPerRequest: 0,
      commandTimeout: options.commandTimeoutMs ?? 5000,
      connectTimeout: 5000,
      connectionName: options.connectionName,
    },
  };
}

/**
 * How a connection treats commands while Redis is unreachable.
 *
 * - `fail-fast`: the store's policy (`storeRedisOptions`, `storeClusterOptions`): no offline queue,
 *   no resends, a command timeout. For data a caller can write again, and for anything that must not
 *   wait behind an outage.
 * - `wait`: commands wait in an offline queue while disconnected and are resent after reconnecting,
 *   without a limit per command (`maxRetriesPerRequest: null`) or a command timeout. BullMQ requires
 *   this on the connections of its Workers (and QueueEvents), whose blocking commands stay on the
 *   server for long. A BullMQ Queue that only adds jobs may keep `fail-fast`, so that an add during
 *   an outage fails at once instead of piling up.
 */
export type RedisCommandPolicy = 'fail-fast' | 'wait';

export interface RedisClientOptions extends StoreConnectionOptions {
  /** `fail-fast` by default. */
  readonly commands?: RedisCommandPolicy;
}

/** The settings that say where Redis is. */
export type RedisLocation = Pick<AppConfig, 'REDIS_URL' | 'REDIS_CLUSTER'> &
  Partial<Pick<AppConfig, 'REDIS_SENTINELS' | 'REDIS_SENTINEL_NAME' | 'REDIS_SENTINEL_PASSWORD'>>;

/**
 * A new connection to the configured Redis, for any component: an ioredis `Redis` for
 * `REDIS_URL`, with `REDIS_SENTINELS` a `Redis` to the primary the Sentinels name, or with
 * `REDIS_CLUSTER=true` a `Cluster` seeded with that node (credentials and TLS of the URL apply to
 * every node). A fail-fast connection times commands out after `commandTimeoutMs` (5 s by
 * default), and a timed-out command makes it drop and remake the connection
 * (`StallAwareRedis`; not on a cluster, whose node connections ioredis makes). The caller owns it: it should listen to its `error` events
 * (`reportConnectionErrors`) and close it.
 *
 * Keys used together by one script or transaction must share a hash tag on a cluster; for BullMQ
 * that means a tagged queue prefix (`bullmqPrefix`).
 */
export function createRedisClient(location: RedisLocation, options: RedisClientOptions = {}): RedisClient {
  const wait = options.commands === 'wait';
  if (location.REDIS_SENTINELS) {
    const viaSentinels = sentinelOptions({
      url: location.REDIS_URL,
      sentinels: location.REDIS_SENTINELS,
      name: location.REDIS_SENTINEL_NAME ?? 'mymaster',
      sentinelPassword: location.REDIS_SENTINEL_PASSWORD,
      commandTimeoutMs: options.commandTimeoutMs ?? 5000,
    });
    return new StallAwareRedis({
      ...(wait ? waitingRedisOptions(options) : storeRedisOptions(options)),
      ...viaSentinels,
    });
  }
  if (!location.REDIS_URL) throw new Error('neither REDIS_URL nor REDIS_SENTINELS is set');
  if (!location.REDIS_CLUSTER) {
    return new StallAwareRedis(
      location.REDIS_URL,
      wait ? waitingRedisOptions(options) : storeRedisOptions(options),
    );
  }
  const seed = clusterSeed(location.REDIS_URL);
  const clusterOptions = wait ? waitingClusterOptions(options) : storeClusterOptions(options);
  return new Cluster([seed.node], {
    ...clusterOptions,
    redisOptions: { ...clusterOptions.redisOptions, ...seed.redisOptions },
  });
}

/**
 * The `prefix` option of BullMQ queues and workers under the key prefix `REDIS_PREFIX`. On a
 * cluster it is a hash tag (`{mdg}`), since BullMQ's scripts touch several keys of a queue at once
 * and a cluster runs a script only on keys of one slot. ioredis' own `keyPrefix` does not work with
 * BullMQ.
 */
export function bullmqPrefix(config: Pick<AppConfig, 'REDIS_PREFIX' | 'REDIS_CLUSTER'>): string {
  return config.REDIS_CLUSTER ? `{${config.REDIS_PREFIX}}` : config.REDIS_PREFIX;
}

/** The seed node of a cluster and what every node's connection takes from the URL. */
export function clusterSeed(url: string): {
  node: { host: string; port: number };
  redisOptions: Pick<RedisOptions, 'username' | 'password' | 'tls'>;
} {
  const parsed = new URL(url);
  const database = parsed.pathname.replace(/^\//, '');
  if (database !== '' && database !== '0') {
    throw new Error(`a Redis Cluster has only database 0, not ${database}`);
  }
  const redisOptions: Pick<RedisOptions, 'username' | 'password' | 'tls'> = {};
  if (parsed.username) redisOptions.username = decodeURIComponent(parsed.username);
  if (parsed.password) redisOptions.password = decodeURIComponent(parsed.password);
  if (parsed.protocol === 'rediss:') redisOptions.tls = {};
  return {
    // An IPv6 host comes in brackets.
    node: { host: parsed.hostname.replace(/^\[(.*)\]$/, '$1'), port: Number(parsed.port || 6379) },
    redisOptions,
  };
}

function waitingRedisOptions(options: StoreConnectionOptions): LegacyRedisOptions {
  return {
    enableOfflineQueue: true,
    maxRetriesPerRequest: null,
    retryStrategy: reconnectDelay(options.maxReconnectDelayMs ?? 2000),
    connectTimeout: 5000,
    connectionName: options.connectionName,
  };
}

function waitingClusterOptions(options: StoreConnectionOptions): ClusterOptions {
  return {
    enableOfflineQueue: true,
    clusterRetryStrategy: reconnectDelay(options.maxReconnectDelayMs ?? 2000),
    redisOptions: {
      maxRetriesPerRequest: null,
      connectTimeout: 5000,
      connectionName: options.connectionName,
    },
  };
}

/** A data connection to the Redis at `url` (`redis://[user:password@]host:port[/db]`) with the store's options. */
export function createStoreRedisClient(url: string, options: StoreConnectionOptions = {}): Redis {
  return new StallAwareRedis(url, storeRedisOptions(options));
}

/** Closes a connection: QUIT when it is up, so that the replies in flight still arrive, else at once. */
export async function closeConnection(client: RedisClient): Promise<void> {
  if (client.status !== 'ready') client.disconnect();
  else await client.quit().catch(() => client.disconnect());
}

/**
 * Logs a connection's errors once per outage: ioredis emits one per reconnection attempt, and
 * without any `error` listener it prints them itself. Every one is counted (`mdg_redis_errors_total`),
 * and so is each stall that made the connection drop itself.
 */
export function reportConnectionErrors(client: RedisClient, logger: StoreLogger, name: string): void {
  let reported = false;
  client.on('error', (error: Error) => {
    countRedisError(name);
    if (reported) return;
    reported = true;
    logger.warn(`${name}: ${describeRedisFailure(redisAddress(client), error)}; reconnecting`);
  });
  client.on(STALLED, (error: Error) => {
    countRedisError(name);
    logger.warn(`${name}: ${describeRedisFailure(redisAddress(client), error)}; reconnecting`);
  });
  client.on('ready', () => {
    reported = false;
  });
}

/** Exponential backoff from 50 ms up to `maxMs`, with jitter so that replicas do not reconnect in step. */
function reconnectDelay(maxMs: number): (attempt: number) => number {
  return (attempt) => Math.min(50 * 2 ** Math.min(attempt - 1, 20), maxMs) + Math.floor(Math.random() * 50);
}
