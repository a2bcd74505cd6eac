import { Inject, Logger, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig, usesRedis } from '../../config/app-config';
import { Tuning } from '../../config/tuning';
import { RedisClient } from '../../store/redis-client';
import { closeConnection, createRedisClient, reportConnectionErrors } from '../../store/redis-connection';

/** The ingest's own Redis connection for leases, membership and owner requests; null without Redis. */
export const COORDINATION_REDIS = Symbol('CoordinationRedis');

export function createCoordinationRedis(config: AppConfig, tuning: Tuning): RedisClient | null {
  if (!usesRedis(config)) return null;
  // Fails fast: a renewal waiting through an outage would let the lease run out unnoticed.
  const client = createRedisClient(config, {
    commandTimeoutMs: Math.min(5_000, Math.floor(tuning.leaseTtlMs / 3)),
    maxReconnectDelayMs: 1_000,
    connectionName: 'mdg-ingest-coordination',
  });
  reportConnectionErrors(client, new Logger('IngestCoordination'), 'Redis (leases)');
  return client;
}

/** Closes the connection after the ingest released its leases (in `beforeApplicationShutdown`). */
export class CoordinationRedisLifecycle implements OnApplicationShutdown {
  constructor(@Inject(COORDINATION_REDIS) private readonly client: RedisClient | null) {}

  async onApplicationShutdown(): Promise<void> {
    if (this.client) await closeConnection(this.client);
  }
}
