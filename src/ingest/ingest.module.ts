import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { SchedulerModule } from '../scheduler/scheduler.module';
import { StoreKeys } from '../store/keys';
import { RedisClient } from '../store/redis-connection';
import { IngestService } from './ingest.service';
import { LocalOwnerRequests } from './owner-requests/local-owner-requests';
import { OWNER_REQUESTS, OwnerRequests } from './owner-requests/owner-request';
import { RedisOwnerRequests } from './owner-requests/redis-owner-requests';
import {
  COORDINATION_REDIS,
  CoordinationRedisLifecycle,
  createCoordinationRedis,
} from './ownership/coordination-redis';
import { instanceId } from './ownership/instance-id';
import { INSTRUMENT_OWNERSHIP, InstrumentOwnership } from './ownership/instrument-ownership';
import { LeaseOwnership } from './ownership/lease-ownership';
import { LocalOwnership } from './ownership/local-ownership';

/**
 * The ingest role: upstream connections, per-instrument pipelines, writes to the store. With Redis
 * the replicas share the instruments out by leases and reach each other's instruments by owner
 * requests; alone, a process owns everything.
 */
@Module({})
export class IngestModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: IngestModule,
      imports: [SchedulerModule.forRoot(config)],
      providers: [
        IngestService,
        { provide: COORDINATION_REDIS, inject: [AppConfig], useFactory: createCoordinationRedis },
        CoordinationRedisLifecycle,
        {
          provide: INSTRUMENT_OWNERSHIP,
          inject: [AppConfig, COORDINATION_REDIS],
          useFactory: (appConfig: AppConfig, client: RedisClient | null): InstrumentOwnership =>
            client
              ? new LeaseOwnership({
                  client,
                  keys: new StoreKeys(appConfig.REDIS_PREFIX),
                  owner: instanceId(appConfig),
                  ttlMs: appConfig.LEASE_TTL_MS,
                })
              : new LocalOwnership(),
        },
        {
          provide: OWNER_REQUESTS,
          inject: [AppConfig, COORDINATION_REDIS],
          useFactory: (appConfig: AppConfig, client: RedisClient | null): OwnerRequests =>
            client
              ? new RedisOwnerRequests(client, new StoreKeys(appConfig.REDIS_PREFIX).ownerRequests)
              : new LocalOwnerRequests(),
        },
      ],
      exports: [IngestService],
    };
  }
}
