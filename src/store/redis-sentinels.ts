import { RedisOptions } from 'ioredis';
import type { LegacyRedisOptions } from './redis-client';

export interface SentinelAddress {
  readonly host: string;
  readonly port: number;
}

/** The Sentinels of `REDIS_SENTINELS` (`host:port,host:port`). */
export function parseSentinels(list: string): SentinelAddress[] {
  return list
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => {
      const colon = entry.lastIndexOf(':');
      return { host: entry.slice(0, colon), port: Number(entry.slice(colon + 1)) };
    });
}

/**
 * What a data connection through Sentinels takes from `REDIS_URL`: the credentials, the database
 * and TLS of the data nodes. The URL's host and port are not used: the Sentinels name the primary.
 * Without a URL the data nodes take no password, database 0, no TLS.
 */
export function dataNodeOptions(
  url: string | undefined,
): Pick<RedisOptions, 'username' | 'password' | 'db' | 'tls'> {
  const options: Pick<RedisOptions, 'username' | 'password' | 'db' | 'tls'> = {};
  if (url === undefined) return options;
  const parsed = new URL(url);
  if (parsed.username) options.username = decodeURIComponent(parsed.username);
  if (parsed.password) options.password = decodeURIComponent(parsed.password);
  const database = parsed.pathname.replace(/^\//, '');
  if (database !== '') options.db = Number(database);
  if (parsed.protocol === 'rediss:') options.tls = {};
  return options;
}

/**
 * ioredis options that find the primary through the Sentinels and follow it across a failover.
 * Only the primary is ever connected to (`role: 'master'`), so writes and leases never reach a replica.
 */
export function sentinelOptions(location: {
  readonly url: string | undefined;
  readonly sentinels: string;
  readonly name: string;
  readonly sentinelPassword?: string;
  readonly commandTimeoutMs: number;
}): LegacyRedisOptions {
  const dataNode = dataNodeOptions(location.url);
  return {
    ...dataNode,
    sentinels: parseSentinels(location.sentinels),
    name: location.name,
    role: 'master',
    sentinelPassword: location.sentinelPassword,
    enableTLSForSentinelMode: dataNode.tls !== undefined,
    sentinelCommandTimeout: location.commandTimeoutMs,
    // Keep asking the Sentinels during a failover, never give up: none may answer for a while.
    sentinelRetryStrategy: (attempt) => Math.min(100 * attempt, 1_000),
    // Sentinel's +switch-master message reconnects at once instead of at the next failed command.
    failoverDetector: true,
    // A demoted primary keeps the connection open and refuses writes: reconnect to the new primary.
    reconnectOnError: (error) => (error.message.startsWith('READONLY') ? 1 : false),
  };
}
