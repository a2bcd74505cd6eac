import type Redis from 'ioredis';
import type { Cluster, RedisOptions } from 'ioredis';

/** A standalone Redis or a Redis Cluster; the store uses only what both offer. */
export type RedisClient = Redis | Cluster;

/** ioredis options without `replyMapping`: every reader here parses replies in the default (legacy) form. */
export type LegacyRedisOptions = Omit<RedisOptions, 'replyMapping'>;
