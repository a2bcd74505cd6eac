import { DynamicModule, Global, Inject, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig, usesRedis } from '../config/app-config';
import { Role } from '../config/role';
import { Tuning } from '../config/tuning';
import { BAR_ARCHIVE } from './bar-archive';
import { DAY_MS } from './bar-archive-days';
import { MemoryBarArchive } from './memory-bar-archive';
import { MemoryStateStore } from './memory-state-store';
import { RedisBarArchive } from './redis-bar-archive';
import { createRedisClient, reportConnectionErrors } from './redis-connection';
import { RedisStateStore } from './redis-state-store';
import { StateStore } from './state-store';

export const STATE_STORE = Symbol('StateStore');

const READY_WAIT_MS = 5_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

class StoreLifecycle implements OnApplicationShutdown {
  constructor(
    @Inject(STATE_STORE) private readonly store: StateStore,
    @Inject(BAR_ARCHIVE) private readonly bars: MemoryBarArchive | RedisBarArchive,
  ) {}

  /** After every `beforeApplicationShutdown` hook, in which the writers flush their last changes. */
  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.store.close(), this.bars.close()]);
  }
}

/**
 * The state store and the bar archive: Redis at `REDIS_URL` (a Redis Cluster with `REDIS_CLUSTER`, the
 * Sentinels' primary with `REDIS_SENTINELS`), process memory without either.
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
        {
          provide: BAR_ARCHIVE,
          inject: [AppConfig, Tuning],
          useFactory: (config: AppConfig, tuning: Tuning): MemoryBarArchive | RedisBarArchive => {
            const retentionMs = config.CHART_HISTORY_DAYS * DAY_MS;
            if (!usesRedis(config)) return new MemoryBarArchive({ retentionMs });
            // A connection of its own: reading months of bars must not hold up the state store's commands.
            const client = createRedisClient(config, {
              connectionName: `${config.REDIS_PREFIX}-bars`,
              commandTimeoutMs: tuning.redisCommandTimeoutMs,
            });
            reportConnectionErrors(client, new Logger(RedisBarArchive.name), 'Redis (bars)');
            return new RedisBarArchive(client, {
              prefix: config.REDIS_PREFIX,
              retentionMs,
              closeClient: true,
            });
          },
        },
        StoreLifecycle,
      ],
      exports: [STATE_STORE, BAR_ARCHIVE],
    };
  }
}
