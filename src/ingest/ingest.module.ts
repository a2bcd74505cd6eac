import { DynamicModule, Logger, Module, Provider } from '@nestjs/common';
import { Registry } from 'prom-client';
import { AppConfig } from '../config/app-config';
import { Tuning } from '../config/tuning';
import { SchedulerModule } from '../scheduler/scheduler.module';
import { BAR_ARCHIVE, BarArchive } from '../store/bar-archive';
import { StoreKeys } from '../store/keys';
import { RedisClient } from '../store/redis-client';
import { StateStore } from '../store/state-store';
import { STATE_STORE } from '../store/store.module';
import { RequestBudget } from '../upstream/rest/request-budget';
import { GatewayClient } from '../upstream/gateway/gateway-client';
import { HubClient } from '../upstream/hub/hub-client';
import { RestClient } from '../upstream/rest/rest-client';
import { REQUEST_BUDGET, UPSTREAM_SETTINGS } from '../upstream/upstream.module';
import { UpstreamSettings } from '../upstream/upstream-settings';
import { BarSealer } from './bar-sealer';
import { CandleSource } from './candle-source';
import { ChartBackfill } from './chart-backfill';
import { CatalogFollower } from './catalog/catalog-follower';
import { registerCatalogInputMetrics } from './catalog/catalog-input-metrics';
import { CatalogRefresher } from './catalog/catalog-refresher';
import { BOOK_FEED, BookFeed } from './feeds/book-feed';
import { GatewayBookFeed } from './feeds/gateway-book-feed';
import { HubBookFeed } from './feeds/hub-book-feed';
import { Level1Feed } from './feeds/level1-feed';
import { TRADE_FEED, TradeFeed } from './feeds/trade-feed';
import { IngestMetrics } from './ingest-metrics';
import { IngestReadiness } from './ingest-readiness';
import { IngestSchedule } from './ingest-schedule';
import { IngestRecorder } from './ingest-recorder';
import { IngestService } from './ingest-service';
import { IngestedInstruments } from './ingested-instruments';
import { LocalOwnerRequests } from './owner-requests/local-owner-requests';
import { OWNER_REQUESTS, OwnerRequests } from './owner-requests/owner-request';
import { OwnerRequestHandler } from './owner-requests/owner-request-handler';
import { RedisOwnerRequests } from './owner-requests/redis-owner-requests';
import {
  COORDINATION_REDIS,
  CoordinationRedisLifecycle,
  createCoordinationRedis,
} from './ownership/coordination-redis';
import { instanceId } from '../config/instance-id';
import { INSTRUMENT_OWNERSHIP, InstrumentOwnership } from './ownership/instrument-ownership';
import { LeaseOwnership } from './ownership/lease-ownership';
import { LocalOwnership } from './ownership/local-ownership';
import { OwnershipFollower } from './ownership/ownership-follower';
import { OwnershipMetrics } from './ownership/ownership-metrics';
import { PipelineFactory } from './pipeline-factory';
import { PipelineOpener } from './pipeline-opener';
import { PipelineTicker } from './pipeline-ticker';
import { SerialWork } from './serial-work';
import { ShutdownSignal } from './shutdown-signal';
import { StateWriter } from './state-writer';
import { StoreWriteReport } from './store-write-report';
import { UpstreamConnections } from './upstream-connections';

/** Instruments are shared out by leases in Redis, or all owned by this process without it. */
const coordinationProviders: Provider[] = [
  { provide: COORDINATION_REDIS, inject: [AppConfig, Tuning], useFactory: createCoordinationRedis },
  CoordinationRedisLifecycle,
  {
    provide: INSTRUMENT_OWNERSHIP,
    inject: [AppConfig, Tuning, COORDINATION_REDIS],
    useFactory: (config: AppConfig, tuning: Tuning, client: RedisClient | null): InstrumentOwnership =>
      client
        ? new LeaseOwnership({
            client,
            keys: new StoreKeys(config.REDIS_PREFIX),
            owner: instanceId(config),
            ttlMs: tuning.leaseTtlMs,
          })
        : new LocalOwnership(),
  },
  {
    provide: OWNER_REQUESTS,
    inject: [AppConfig, COORDINATION_REDIS],
    useFactory: (config: AppConfig, client: RedisClient | null): OwnerRequests =>
      client
        ? new RedisOwnerRequests(client, new StoreKeys(config.REDIS_PREFIX).ownerRequests)
        : new LocalOwnerRequests(),
  },
];

const feedProviders: Provider[] = [
  {
    provide: BOOK_FEED,
    inject: [AppConfig, HubClient, GatewayClient],
    useFactory: (config: AppConfig, hub: HubClient, gateway: GatewayClient): BookFeed =>
      config.BOOK_SOURCE === 'hub' ? new HubBookFeed(hub) : new GatewayBookFeed(gateway),
  },
  {
    provide: TRADE_FEED,
    inject: [Tuning, UPSTREAM_SETTINGS, GatewayClient],
    useFactory: (tuning: Tuning, settings: UpstreamSettings, gateway: GatewayClient): TradeFeed | null => {
      if (settings.credentials)
        return new TradeFeed(gateway, { snapshotCount: tuning.tradesSnapshotCount, now: () => Date.now() });
      new Logger('IngestModule').warn(
        'no gateway login configured: no trade feed; 24-hour statistics come from candles and level 1',
      );
      return null;
    },
  },
  Level1Feed,
  CandleSource,
];

const storeProviders: Provider[] = [
  {
    provide: CatalogRefresher,
    inject: [RestClient, GatewayClient, STATE_STORE, AppConfig, Tuning, Registry, UPSTREAM_SETTINGS],
    useFactory: (
      rest: RestClient,
      gateway: GatewayClient,
      store: StateStore,
      config: AppConfig,
      tuning: Tuning,
      registry: Registry,
      upstream: UpstreamSettings,
    ): CatalogRefresher => {
      const refresher = new CatalogRefresher(
        rest,
        gateway,
        store,
        config.ASSETS_FILE,
        tuning.catalogGatewayWaitMs,
        () => Date.now(),
        upstream.sandbox,
      );
      registerCatalogInputMetrics(registry, () => refresher.inputs.health());
      return refresher;
    },
  },
  CatalogFollower,
  StoreWriteReport,
  {
    provide: BarSealer,
    inject: [BAR_ARCHIVE, IngestedInstruments],
    useFactory: (archive: BarArchive, instruments: IngestedInstruments): BarSealer =>
      new BarSealer({ archive, pipelines: () => instruments.pipelines(), now: () => Date.now() }),
  },
  {
    provide: ChartBackfill,
    inject: [
      AppConfig,
      IngestedInstruments,
      RestClient,
      BAR_ARCHIVE,
      REQUEST_BUDGET,
      SerialWork,
      ShutdownSignal,
      IngestMetrics,
    ],
    useFactory: (
      config: AppConfig,
      instruments: IngestedInstruments,
      rest: RestClient,
      archive: BarArchive,
      budget: RequestBudget,
      ownerWork: SerialWork,
      shutdown: ShutdownSignal,
      metrics: IngestMetrics,
    ): ChartBackfill =>
      new ChartBackfill(
        {
          instruments: () => instruments.instruments(),
          rest,
          archive,
          budget,
          ownerWork,
          signal: shutdown.signal,
          countMismatches: (instrument, bars) => metrics.chartBarMismatches(instrument, bars),
        },
        { historyDays: config.CHART_HISTORY_DAYS },
      ),
  },
  {
    provide: StateWriter,
    inject: [STATE_STORE, IngestedInstruments, Tuning, StoreWriteReport],
    useFactory: (
      store: StateStore,
      instruments: IngestedInstruments,
      tuning: Tuning,
      report: StoreWriteReport,
    ): StateWriter => new StateWriter(store, () => instruments.pipelines(), tuning.flushIntervalMs, report),
  },
];

const observabilityProviders: Provider[] = [
  {
    provide: IngestMetrics,
    inject: [Registry, IngestedInstruments, UpstreamConnections],
    useFactory: (registry: Registry, instruments: IngestedInstruments, upstream: UpstreamConnections) =>
      new IngestMetrics(
        registry,
        () => instruments.pipelines(),
        upstream.list(),
        () => Date.now(),
      ),
  },
  {
    provide: OwnershipMetrics,
    inject: [Registry, INSTRUMENT_OWNERSHIP],
    useFactory: (registry: Registry, ownership: InstrumentOwnership) =>
      new OwnershipMetrics(registry, ownership),
  },
  IngestReadiness,
];

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
        IngestRecorder,
        ShutdownSignal,
        UpstreamConnections,
        IngestedInstruments,
        PipelineFactory,
        PipelineOpener,
        PipelineTicker,
        // The owner's REST work (book checks, candles, chart backfill), one task at a time.
        { provide: SerialWork, useFactory: () => new SerialWork() },
        OwnerRequestHandler,
        OwnershipFollower,
        IngestSchedule,
        ...coordinationProviders,
        ...feedProviders,
        ...storeProviders,
        ...observabilityProviders,
      ],
      exports: [IngestService],
    };
  }
}
