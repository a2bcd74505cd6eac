import { DynamicModule, Global, Inject, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig, usesRedis } from '../config/app-config';
import { Role } from '../config/role';
import { Tuning } from '../config/tuning';
import { MemoryStateStore } from './memory-state-store';
import { createRedisClient, reportConnectionErrors } from './redis-connection';
import { RedisStateStore } from './redis-state-store';
import { StateStore } from './state-store';

export const STATE_STORE = Symbol('StateStore');

const READY_WAIT_MS = 5_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

class StoreLifecycle implements OnApplicationShutdown {
  constructor(@Inject(STATE_STORE) private readonly store: StateStore) {}

  /** After every `beforeApplicationShutdown` hook, in which the writers flush their last changes. */
  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}

/**
 * The state store: Redis at `REDIS_URL` (a Redis Cluster with `REDIS_CLUSTER`, the Sentinels' primary
 * with `REDIS_SENTINELS`), process memory without either.
 */
@Global()
@Module({})
export class StoreModule {
  static forRoot(): DynamicModule {
    return {
      module: StoreModule,
      providers: [
        {
          provide: STATE_STORE,
          inject: [AppConfig, Tuning],
          useFactory: async (config: AppConfig, tuning: Tuning): Promise<StateStore> => {
            if (!usesRedis(config)) return new MemoryStateStore();
            const logger = new Logger(RedisStateStore.name);
            const client = createRedisClient(config, {
              connectionName: `${config.REDIS_PREFIX}-store`,
              commandTimeoutMs: tuning.redisCommandTimeoutMs,
            });
            reportConnectionErrors(client, logger, config.REDIS_CLUSTER ? 'Redis Cluster' : 'Redis');
            const store = new RedisStateStore(client, {
              logger,
              prefix: config.REDIS_PREFIX,
              closeClient: true,
              instrumentNotices: config.ROLE !== Role.Ingest,
            });
            // Redis may be down at boot: start anyway, the store reconnects and writers fill it when it is back.
            const ready = await Promise.race([
              store.ready().then(
                () => true,
                () => false,
              ),
              sleep(READY_WAIT_MS).then(() => false),
            ]);
            if (!ready) logger.warn(`Redis not reachable within ${READY_WAIT_MS} ms; starting anyway`);
            return store;
          },
        },
        StoreLifecycle,
      ],
      exports: [STATE_STORE],
    };
  }
}
