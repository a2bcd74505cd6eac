import { Cluster } from 'ioredis';
import { networkCause } from '../logging/network-cause';
import type { RedisClient } from './redis-client';

/**
 * `host:port` of a Redis connection, `cluster host:port` of a cluster's first seed, or the primary's
 * name and first Sentinel: never credentials.
 */
export function redisAddress(client: RedisClient): string {
  if (client instanceof Cluster) {
    const seeds = (client as unknown as { startupNodes?: readonly { host?: string; port?: number }[] })
      .startupNodes;
    const seed = seeds?.[0];
    return seed ? `cluster ${seed.host ?? 'localhost'}:${seed.port ?? 6379}` : 'cluster';
  }
  const { host, port, path, sentinels, name } = client.options;
  if (sentinels?.length) {
    const first = sentinels[0];
    return `primary ${name ?? 'mymaster'} via sentinel ${first.host ?? 'localhost'}:${first.port ?? 26379}`;
  }
  return path ? path : `${host ?? 'localhost'}:${port ?? 6379}`;
}

/**
 * Why Redis at `address` cannot serve, in plain words: from the command's `error` and the last
 * error of the connection, which says more when the command failed only because the connection is
 * down ("Stream isn't writeable and enableOfflineQueue options is false").
 */
export function describeRedisFailure(address: string, error: unknown, connectionError?: unknown): string {
  for (const candidate of [connectionError, error]) {
    const refusedCredentials = /^(NOAUTH|WRONGPASS|NOPERM)\b/.exec(messageOf(candidate));
    if (refusedCredentials)
      return `Redis at ${address} refused the credentials of REDIS_URL (${refusedCredentials[1]})`;
    const cause = networkCause(candidate);
    if (cause) return `Redis unreachable at ${address}: ${cause}`;
  }
  const message = messageOf(error);
  if (/Stream isn't writeable|Connection is closed|enableOfflineQueue/i.test(message))
    return `Redis unreachable at ${address}: not connected`;
  if (/timed out/i.test(message)) return `Redis at ${address} did not answer in time (${message})`;
  return `Redis at ${address}: ${message}`;
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return error === undefined ? '' : String(error);
}
