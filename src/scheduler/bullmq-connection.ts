import { Logger } from '@nestjs/common';
import { ConnectionOptions } from 'bullmq';
import { RedisClient } from '../store/redis-client';
import {
  closeConnection,
  createRedisClient,
  RedisLocation,
  reportConnectionErrors,
} from '../store/redis-connection';

/** BullMQ's connections to the configured Redis or Redis Cluster, opened and closed here. */
export class JobConnections {
  /** For the Queue, which only adds: an add during an outage fails at once instead of piling up. */
  readonly queue: RedisClient;
  /** For the Worker, whose blocking commands must wait through an outage (BullMQ duplicates it). */
  readonly worker: RedisClient;

  constructor(location: RedisLocation, commandTimeoutMs?: number) {
    const logger = new Logger(JobConnections.name);
    this.queue = createRedisClient(location, { connectionName: 'mdg-jobs', commandTimeoutMs });
    this.worker = createRedisClient(location, { commands: 'wait', connectionName: 'mdg-jobs-worker' });
    reportConnectionErrors(this.queue, logger, 'Redis (jobs)');
    reportConnectionErrors(this.worker, logger, 'Redis (job worker)');
  }

  /** ioredis connections as BullMQ takes them (it never pipelines them automatically, nor should it). */
  static asBullMq(client: RedisClient): ConnectionOptions {
    return client as unknown as ConnectionOptions;
  }

  async close(): Promise<void> {
    await Promise.all([this.queue, this.worker].map(closeConnection));
  }
}
