import Redis, { Cluster, ClusterOptions, RedisOptions } from 'ioredis';
import { StoreLogger } from './store-logger';

/** A standalone Redis or a Redis Cluster; the store uses only what both offer. */
export type RedisClient = Redis | Cluster;

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
export function storeRedisOptions(options: StoreConnectionOptions = {}): RedisOptions {
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

/** A data connection to the Redis at `url` (`redis://[user:password@]host:port[/db]`) with the store's options. */
export function createStoreRedisClient(url: string, options: StoreConnectionOptions = {}): Redis {
  return new Redis(url, storeRedisOptions(options));
}

/**
 * Logs a connection's errors once per outage: ioredis emits one per reconnection attempt, and
 * without any `error` listener it prints them itself.
 */
export function reportConnectionErrors(client: RedisClient, logger: StoreLogger, name: string): void {
  let reported = false;
  client.on('error', (error: Error) => {
    if (reported) return;
    reported = true;
    logger.warn(`${name}: ${error.message}; reconnecting`);
  });
  client.on('ready', () => {
    reported = false;
  });
}

/** Exponential backoff from 50 ms up to `maxMs`, with jitter so that replicas do not reconnect in step. */
function reconnectDelay(maxMs: number): (attempt: number) => number {
  return (attempt) => Math.min(50 * 2 ** Math.min(attempt - 1, 20), maxMs) + Math.floor(Math.random() * 50);
}
