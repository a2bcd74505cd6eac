import { Logger } from '@nestjs/common';
import { Cluster } from 'ioredis';
import { RedisClient } from '../../store/redis-client';
import { reportConnectionErrors } from '../../store/redis-connection';
import { OwnerRequest, OwnerRequests, parseOwnerRequest } from './owner-request';

/**
 * Owner requests over Redis pub/sub: published on one channel, heard by every ingest replica. A
 * request lost while a replica is disconnected is not repeated; the next run of its job asks again.
 */
export class RedisOwnerRequests implements OwnerRequests {
  private readonly logger = new Logger(RedisOwnerRequests.name);
  private subscriber?: RedisClient;

  constructor(
    private readonly client: RedisClient,
    private readonly channel: string,
  ) {}

  start(listener: (request: OwnerRequest) => void): void {
    // SUBSCRIBE needs a connection of its own, which queues while connecting and resubscribes after a reconnection.
    const subscriber =
      this.client instanceof Cluster
        ? this.client.duplicate([], { enableOfflineQueue: true })
        : this.client.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null });
    this.subscriber = subscriber;
    reportConnectionErrors(subscriber, this.logger, 'Redis owner-request subscriber');
    subscriber.on('message', (channel: string, message: string) => {
      if (channel !== this.channel) return;
      const request = parseOwnerRequest(message);
      if (request) listener(request);
      else this.logger.warn(`ignored a malformed owner request: ${message.slice(0, 200)}`);
    });
    subscriber
      .subscribe(this.channel)
      .catch((error: unknown) => this.logger.warn(`subscribing to owner requests failed: ${String(error)}`));
  }

  async send(request: OwnerRequest): Promise<void> {
    await this.client.publish(this.channel, JSON.stringify(request));
  }

  async stop(): Promise<void> {
    this.subscriber?.disconnect();
    this.subscriber = undefined;
  }
}
