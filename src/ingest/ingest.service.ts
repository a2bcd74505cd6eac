import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { Registry } from 'prom-client';
import { Readiness } from '../health/readiness';
import { AppConfig } from '../config/app-config';
import { BookSyncOptions } from '../market/book-synchronizer';
import { MarketCatalog, MarketInfo } from '../market/market-info';
import { DAY_MS } from '../market/trade-window';
import { STATE_STORE } from '../store/store.module';
import { StateStore } from '../store/state-store';
import { GatewayClient } from '../upstream/gateway/gateway-client';
import { level1Subscription } from '../upstream/gateway/market-data-subscriptions';
import { HubClient } from '../upstream/hub/hub-client';
import { ReconnectBackoff } from '../upstream/reconnect-backoff';
import { RestClient } from '../upstream/rest/rest-client';
import { UPSTREAM_SETTINGS } from '../upstream/upstream.module';
import { UpstreamSettings } from '../upstream/upstream-settings';
import { CatalogRefresher } from './catalog/catalog-refresher';
import { BookFeed } from './feeds/book-feed';
import { GatewayBookFeed } from './feeds/gateway-book-feed';
import { HubBookFeed } from './feeds/hub-book-feed';
import { TradeFeed } from './feeds/trade-feed';
import { IngestMetrics } from './ingest-metrics';
import { InstrumentPipeline } from './instrument-pipeline';
import { RoundRobin } from './round-robin';
import { StateWriter } from './state-writer';

const TICK_MS = 50;
/** Candles of 5 minutes cover 24 hours in one request (288 buckets, within the 1,000 limit). */
const CANDLE_INTERVAL = '5m';
const CANDLE_COUNT = 289;

/** Per-instrument resources that live and die with the instrument's pipeline. */
interface Ingested {
  readonly pipeline: InstrumentPipeline;
  readonly feeds: { close(): void }[];
}

/**
 * The ingest role: keeps, for every listed market, a pipeline fed by the upstream feeds, and writes
 * what changes to the store. Starts in the background so that the process serves health and metrics
 * while the exchange is still being reached.
 */
@Injectable()
export class IngestService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(IngestService.name);
  private readonly now = () => Date.now();
  private readonly ingested = new Map<string, Ingested>();
  private readonly bookFeed: BookFeed;
  private readonly tradeFeed?: TradeFeed;
  private readonly catalog: CatalogRefresher;
  private readonly writer: StateWriter;
  private readonly verifier: RoundRobin<InstrumentPipeline>;
  private readonly candleRefresher?: RoundRobin<InstrumentPipeline>;
  private readonly metrics: IngestMetrics;
  private readonly syncOptions: BookSyncOptions;
  private ticker?: NodeJS.Timeout;
  private catalogTimer?: NodeJS.Timeout;
  private stopped = false;
  private storeFailing = false;

  constructor(
    @Inject(AppConfig) private readonly config: AppConfig,
    @Inject(STATE_STORE) store: StateStore,
    @Inject(UPSTREAM_SETTINGS) settings: UpstreamSettings,
    @Inject(RestClient) private readonly rest: RestClient,
    @Inject(HubClient) private readonly hub: HubClient,
    @Inject(GatewayClient) private readonly gateway: GatewayClient,
    @Inject(Registry) registry: Registry,
    @Inject(Readiness) readiness: Readiness,
  ) {
    const fromHub = config.BOOK_SOURCE === 'hub';
    this.bookFeed = fromHub ? new HubBookFeed(hub) : new GatewayBookFeed(gateway);
    // Both feeds answer a (re)subscription with a snapshot, which is cheaper than a REST snapshot.
    this.syncOptions = { recovery: 'reopen-stream' };
    if (settings.credentials) {
      this.tradeFeed = new TradeFeed(gateway, { snapshotCount: config.TRADES_SNAPSHOT_COUNT, now: this.now });
    }
    this.catalog = new CatalogRefresher(rest, gateway, store, config.ASSETS_FILE, this.now);
    this.metrics = new IngestMetrics(
      registry,
      () => this.pipelines(),
      [
        ...(fromHub
          ? [{ name: 'hub', state: () => hub.state, reconnects: () => hub.counters.reconnects }]
          : []),
        { name: 'gateway', state: () => gateway.state, reconnects: () => gateway.counters.reconnects },
      ],
      this.now,
    );
    this.writer = new StateWriter(store, () => this.pipelines(), config.FLUSH_INTERVAL_MS, {
      onWritten: () => {
        this.metrics.storeWrites.inc({ result: 'written' });
        if (this.storeFailing) this.logger.log('store writes succeed again');
        this.storeFailing = false;
      },
      // Once per outage: the writer tries again every flush interval.
      onFailed: (error) => {
        this.metrics.storeWrites.inc({ result: 'failed' });
        if (!this.storeFailing)
          this.logger.warn(`store write failed, the instruments will be written whole: ${error.message}`);
        this.storeFailing = true;
      },
      onFenced: (instrument) => {
        this.metrics.storeWrites.inc({ result: 'fenced' });
        this.logger.warn(`${instrument}: another writer owns it now; this process stops ingesting it`);
        this.remove(instrument);
      },
    });
    this.verifier = new RoundRobin(
      () => this.pipelines().filter((pipeline) => pipeline.state === 'live'),
      config.BOOK_VERIFY_INTERVAL_MS,
      (pipeline) => this.verify(pipeline),
    );
    if (!this.tradeFeed) {
      this.candleRefresher = new RoundRobin(
        () => this.pipelines(),
        config.CANDLE_REFRESH_MS,
        (pipeline) => this.refreshCandles(pipeline),
      );
    }
    readiness.register({
      name: 'ingest',
      check: () => {
        const pipelines = this.pipelines();
        const notLive = pipelines
          .filter((pipeline) => pipeline.state !== 'live')
          .map((pipeline) => pipeline.instrument);
        return {
          ready: pipelines.length > 0 && notLive.length === 0,
          instruments: pipelines.length,
          notLive,
        };
      },
    });
  }

  pipelines(): InstrumentPipeline[] {
    return [...this.ingested.values()].map((entry) => entry.pipeline);
  }

  onApplicationBootstrap(): void {
    if (this.config.BOOK_SOURCE === 'hub') this.hub.start();
    this.gateway.start();
    this.writer.start();
    this.catalog.start();
    this.ticker = setInterval(() => {
      for (const pipeline of this.pipelines()) pipeline.tick();
    }, TICK_MS);
    if (!this.tradeFeed)
      this.logger.warn(
        'no gateway login configured: no trade feed; 24-hour statistics come from candles and level 1',
      );
    void this.loadCatalogUntilItWorks();
  }

  /** Before the store closes: the last changes are flushed, then the upstream connections end. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearInterval(this.ticker);
    clearTimeout(this.catalogTimer);
    this.catalog.stop();
    await Promise.all([this.verifier.stop(), this.candleRefresher?.stop()]);
    for (const instrument of [...this.ingested.keys()]) this.remove(instrument);
    await this.writer.stop();
    await Promise.all([this.hub.stop(), this.gateway.stop()]);
  }

  private async loadCatalogUntilItWorks(): Promise<void> {
    const backoff = new ReconnectBackoff({ initialDelayMs: 1_000, maxDelayMs: 30_000 });
    for (let attempt = 0; !this.stopped; attempt++) {
      try {
        this.reconcile(await this.catalog.refresh());
        this.verifier.start();
        this.candleRefresher?.start();
        this.scheduleCatalogRefresh();
        return;
      } catch (error) {
        this.logger.warn(`market catalogue unavailable, retrying: ${(error as Error).message}`);
        await new Promise((resolve) => setTimeout(resolve, backoff.delay(attempt)));
      }
    }
  }

  private scheduleCatalogRefresh(): void {
    this.catalogTimer = setTimeout(async () => {
      try {
        this.reconcile(await this.catalog.refresh());
      } catch (error) {
        this.logger.warn(
          `market catalogue refresh failed, keeping the last one: ${(error as Error).message}`,
        );
      }
      if (!this.stopped) this.scheduleCatalogRefresh();
    }, this.config.CATALOG_REFRESH_MS);
  }

  /** Opens a pipeline for every listed market and closes those of markets no longer listed. */
  private reconcile(catalog: MarketCatalog): void {
    const listed = new Map(
      catalog.markets.filter((market) => !market.hidden).map((market) => [market.instrument, market]),
    );
    for (const instrument of this.ingested.keys()) if (!listed.has(instrument)) this.remove(instrument);
    for (const market of listed.values()) if (!this.ingested.has(market.instrument)) this.add(market);
  }

  private add(market: MarketInfo): void {
    const instrument = market.instrument;
    const pipeline = new InstrumentPipeline({
      market,
      bookFeed: this.bookFeed,
      restSnapshot: (name) => this.rest.depth(name),
      tradeFeed: this.tradeFeed && market.gateway ? 'live' : 'unavailable',
      sync: this.syncOptions,
      now: this.now,
      events: {
        onResync: (name, reason, detail) => {
          this.metrics.resync(name, reason);
          this.logger.warn(`${name}: book re-syncs after ${reason}${detail ? ` (${detail})` : ''}`);
        },
        onMalformed: (name, error) => {
          this.metrics.malformedMessage(name);
          this.logger.warn(`${name}: malformed book message skipped: ${error.message}`);
        },
        onSnapshotFailed: (name, error) =>
          this.logger.warn(`${name}: REST snapshot failed: ${error.message}`),
      },
    });
    const feeds: { close(): void }[] = [];
    try {
      pipeline.start();
      if (this.tradeFeed && market.gateway) {
        feeds.push(
          this.tradeFeed.open(market, {
            onTrades: (trades) => pipeline.addTrades(trades),
            newestTradeTime: () => pipeline.newestTradeTime(),
          }),
        );
      } else if (market.gateway) {
        feeds.push(this.openLevel1(market, pipeline));
      }
    } catch (error) {
      this.logger.error(`${instrument}: cannot be ingested: ${(error as Error).message}`);
      pipeline.stop();
      return;
    }
    this.ingested.set(instrument, { pipeline, feeds });
  }

  private remove(instrument: string): void {
    const entry = this.ingested.get(instrument);
    if (!entry) return;
    entry.pipeline.stop();
    for (const feed of entry.feeds) feed.close();
    this.ingested.delete(instrument);
  }

  /** Without a trade feed: the exchange's last price and rolling volume from the public Level 1 feed. */
  private openLevel1(market: MarketInfo, pipeline: InstrumentPipeline): { close(): void } {
    const ref = market.gateway!;
    const subscription = this.gateway.subscribe(
      level1Subscription(
        { instrument: { instrumentId: ref.instrumentId, instrument: market.instrument } },
        {
          onLevel1: (level1) =>
            pipeline.setLevel1(level1.lastTradedPrice, level1.rolling24hVolume, level1.time),
          onError: (error) =>
            this.logger.warn(`${market.instrument}: unreadable level 1 skipped: ${error.message}`),
        },
      ),
    );
    return { close: () => void subscription.close().catch(() => undefined) };
  }

  private async verify(pipeline: InstrumentPipeline): Promise<void> {
    try {
      await pipeline.verify();
    } catch (error) {
      this.logger.warn(
        `${pipeline.instrument}: book check skipped, REST snapshot failed: ${(error as Error).message}`,
      );
    }
  }

  private async refreshCandles(pipeline: InstrumentPipeline): Promise<void> {
    const end = this.now();
    try {
      const candles = await this.rest.history(pipeline.instrument, {
        start: end - DAY_MS,
        end,
        interval: CANDLE_INTERVAL,
        count: CANDLE_COUNT,
      });
      pipeline.setCandles(candles);
    } catch (error) {
      this.logger.warn(`${pipeline.instrument}: candles unavailable: ${(error as Error).message}`);
    }
  }
}
