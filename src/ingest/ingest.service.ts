import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { setMaxListeners } from 'node:events';
import { Registry } from 'prom-client';
import { Readiness } from '../health/readiness';
import { AppConfig } from '../config/app-config';
import { BookSyncOptions } from '../market/book-synchronizer';
import { MarketCatalog, MarketInfo } from '../market/market-info';
import { DAY_MS } from '../market/trade-window';
import { JOB_SCHEDULER, JobScheduler } from '../scheduler/scheduled-job';
import { STATE_STORE } from '../store/store.module';
import { StateStore, WriteFence } from '../store/state-store';
import { GatewayClient } from '../upstream/gateway/gateway-client';
import { level1Subscription } from '../upstream/gateway/market-data-subscriptions';
import { HubClient } from '../upstream/hub/hub-client';
import { ReconnectBackoff } from '../upstream/reconnect-backoff';
import { RestClient } from '../upstream/rest/rest-client';
import { UPSTREAM_SETTINGS } from '../upstream/upstream.module';
import { UpstreamSettings } from '../upstream/upstream-settings';
import { registerCatalogInputMetrics } from './catalog/catalog-input-metrics';
import { CatalogInputHealth, CatalogInputName } from './catalog/catalog-inputs';
import { CatalogRefresher } from './catalog/catalog-refresher';
import { BookFeed } from './feeds/book-feed';
import { GatewayBookFeed } from './feeds/gateway-book-feed';
import { HubBookFeed } from './feeds/hub-book-feed';
import { TradeFeed } from './feeds/trade-feed';
import { CATALOG_REFRESH_JOB, ingestJobs } from './ingest-jobs';
import { IngestMetrics } from './ingest-metrics';
import { InstrumentPipeline } from './instrument-pipeline';
import { OWNER_REQUESTS, OwnerRequest, OwnerRequests } from './owner-requests/owner-request';
import { INSTRUMENT_OWNERSHIP, InstrumentOwnership, LossReason } from './ownership/instrument-ownership';
import { OwnershipMetrics } from './ownership/ownership-metrics';
import { SerialWork } from './serial-work';
import { StateWriter } from './state-writer';

const TICK_MS = 50;
/** Candles of 5 minutes cover 24 hours in one request (288 buckets, within the 1,000 limit). */
const CANDLE_INTERVAL = '5m';
const CANDLE_COUNT = 289;
/** How long a newly owned instrument may sync before its first write replaces the stored state anyway. */
const FIRST_WRITE_WAIT_MS = 5_000;

/** Per-instrument resources that live and die with the instrument's pipeline. */
interface Ingested {
  /** The market as the catalogue described it when the pipeline was opened. */
  readonly market: MarketInfo;
  readonly pipeline: InstrumentPipeline;
  readonly feeds: { close(): void }[];
}

/**
 * The ingest role: keeps a pipeline fed by the upstream feeds for every listed market this replica
 * owns, and writes what changes to the store under the owner's fence. The catalogue comes from the
 * store (refreshed by a scheduled job on any replica, announced by a change notice), ownership from
 * `InstrumentOwnership`, and the periodic work from the job scheduler. Starts in the background so
 * that the process serves health and metrics while the exchange is still being reached.
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
  private readonly ownerWork = new SerialWork();
  private readonly metrics: IngestMetrics;
  private readonly ownershipMetrics: OwnershipMetrics;
  private readonly syncOptions: BookSyncOptions;
  /** The newest catalogue loaded, and its listed (not hidden) markets by instrument. */
  private loadedCatalog?: MarketCatalog;
  private listed = new Map<string, MarketInfo>();
  private ticker?: NodeJS.Timeout;
  private catalogTimer?: NodeJS.Timeout;
  private catalogRetry?: NodeJS.Timeout;
  private stopListening?: () => void;
  private stopped = false;
  /** Aborts the REST calls still running at shutdown, which would otherwise go on retrying. */
  private readonly shutdown = abortControllerForAnyNumberOfCalls();
  private storeFailing = false;
  /** Instruments whose last candle refresh failed; they keep the candles they had. */
  private readonly candlesFailing = new Set<string>();

  constructor(
    @Inject(AppConfig) private readonly config: AppConfig,
    @Inject(STATE_STORE) private readonly store: StateStore,
    @Inject(UPSTREAM_SETTINGS) settings: UpstreamSettings,
    @Inject(RestClient) private readonly rest: RestClient,
    @Inject(HubClient) private readonly hub: HubClient,
    @Inject(GatewayClient) private readonly gateway: GatewayClient,
    @Inject(Registry) registry: Registry,
    @Inject(Readiness) readiness: Readiness,
    @Inject(INSTRUMENT_OWNERSHIP) private readonly ownership: InstrumentOwnership,
    @Inject(OWNER_REQUESTS) private readonly ownerRequests: OwnerRequests,
    @Inject(JOB_SCHEDULER) private readonly jobs: JobScheduler,
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
    registerCatalogInputMetrics(registry, () => this.catalog.inputs.health());
    this.ownershipMetrics = new OwnershipMetrics(registry, ownership);
    this.writer = new StateWriter(store, () => this.pipelines(), config.FLUSH_INTERVAL_MS, {
      onWritten: (_instruments, durationMs) => {
        this.metrics.storeWrites.inc({ result: 'written' });
        this.metrics.storeWriteDuration.observe(durationMs / 1000);
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
        this.ownership.fenced(instrument);
      },
    });
    readiness.register({
      name: 'ingest',
      check: () => {
        const status = this.ownership.status();
        const pipelines = this.pipelines();
        const notLive = pipelines
          .filter((pipeline) => pipeline.state !== 'live')
          .map((pipeline) => pipeline.instrument);
        return {
          // A replica may own nothing when there are more replicas than instruments.
          ready: status.settled && notLive.length === 0,
          listed: this.listed.size,
          instruments: pipelines.length,
          notLive,
          replicas: status.replicas,
          // Cluster-wide, for operators: listed instruments nobody wrote at the last look.
          unowned: status.unowned ?? null,
          upstream: this.upstreamConnections(),
          // Not part of `ready`: with an input failing the catalogue keeps its last good version.
          catalogInputs: describeInputs(this.catalog.inputs.health()),
          candlesUnavailable: [...this.candlesFailing],
        };
      },
    });
  }

  /** Each upstream connection's state, and why it is down when it is: for `/health/ready`. */
  private upstreamConnections(): Record<string, string> {
    const shown = (state: string, problem: string | undefined): string =>
      state === 'connected' || !problem ? state : `${state}: ${problem}`;
    return {
      ...(this.config.BOOK_SOURCE === 'hub' ? { hub: shown(this.hub.state, this.hub.problem) } : {}),
      gateway: shown(this.gateway.state, this.gateway.problem),
    };
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
    this.stopListening = this.store.onChange((notice) => {
      if (notice.kind === 'catalog') void this.loadStoredCatalog();
    });
    // Change notices are fire-and-forget: the stored catalogue is also read now and then.
    this.catalogTimer = setInterval(() => void this.loadStoredCatalog(), this.config.CATALOG_REFRESH_MS);
    this.ownership.start({
      acquired: (instrument, fence) => this.acquired(instrument, fence),
      lost: (instrument, reason) => this.lost(instrument, reason),
    });
    this.ownerRequests.start((request) => this.onOwnerRequest(request));
    this.jobs.start(
      ingestJobs(this.config, {
        refreshCatalog: async () => {
          await this.catalog.refresh(this.shutdown.signal);
        },
        markets: async () => (await this.store.readCatalog())?.markets ?? [],
        askOwners: (request) => this.ownerRequests.send(request),
        trimTrades: (instruments, before) => this.store.trimTrades(instruments, before),
        now: this.now,
      }),
    );
    void this.loadCatalogUntilItWorks();
  }

  /**
   * Before the store closes: no more jobs or leases taken, the last changes flushed, then the leases
   * released so that other replicas take over at once, then the upstream connections end.
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.shutdown.abort(new Error('shutting down'));
    clearInterval(this.ticker);
    clearInterval(this.catalogTimer);
    clearTimeout(this.catalogRetry);
    this.stopListening?.();
    this.catalog.stop();
    await this.jobs.stop();
    await this.ownerRequests.stop();
    await this.ownerWork.stop();
    await this.ownership.stop();
    await this.writer.stop();
    await this.ownership.release();
    for (const instrument of [...this.ingested.keys()]) this.remove(instrument);
    await Promise.all([this.hub.stop(), this.gateway.stop()]);
  }

  /**
   * The stored catalogue, until one is loaded. The refresh job runs at start where the schedule is
   * new (and in-process), so it is asked for again only when nothing came within the first wait.
   */
  private async loadCatalogUntilItWorks(): Promise<void> {
    const backoff = new ReconnectBackoff({ initialDelayMs: 4_000, maxDelayMs: 30_000 });
    for (let attempt = 0; ; attempt++) {
      await this.loadStoredCatalog();
      if (this.loadedCatalog || this.stopped) return;
      await new Promise((resolve) => {
        this.catalogRetry = setTimeout(resolve, backoff.delay(attempt));
      });
      if (this.loadedCatalog || this.stopped) return;
      this.logger.warn('no market catalogue yet, asking for a refresh');
      await this.jobs.runSoon(CATALOG_REFRESH_JOB).catch((error: Error) => {
        this.logger.warn(`market catalogue refresh not requested: ${error.message}`);
      });
    }
  }

  private async loadStoredCatalog(): Promise<void> {
    let catalog: MarketCatalog | undefined;
    try {
      catalog = await this.store.readCatalog();
    } catch (error) {
      this.logger.warn(`market catalogue unreadable, keeping the last one: ${(error as Error).message}`);
      return;
    }
    if (!catalog || this.stopped) return;
    // Two reads may cross; the older catalogue never replaces the newer.
    if (this.loadedCatalog && catalog.refreshedAt <= this.loadedCatalog.refreshedAt) return;
    this.loadedCatalog = catalog;
    this.listed = new Map(
      catalog.markets.filter((market) => !market.hidden).map((market) => [market.instrument, market]),
    );
    this.ownership.setListed([...this.listed.keys()]);
    // A catalogue refreshed while the gateway was out of reach has no gateway ids: pipelines opened
    // from it have no trade feed. Once the ids are back, such a pipeline is opened again with them.
    // A catalogue without them leaves running pipelines as they are, trade feeds included.
    for (const [instrument, entry] of [...this.ingested]) {
      const market = this.listed.get(instrument);
      if (!market?.gateway || sameGatewayRef(entry.market.gateway, market.gateway)) continue;
      this.logger.log(`${instrument}: gateway ids changed in the catalogue, its feeds are opened again`);
      const fence = entry.pipeline.fence;
      this.remove(instrument);
      this.add(market, fence);
    }
  }

  private acquired(instrument: string, fence: WriteFence | undefined): void {
    const market = this.listed.get(instrument);
    if (!market || this.stopped) return;
    this.ownershipMetrics.acquired();
    if (fence) this.logger.log(`${instrument}: owned now (fencing token ${fence.token})`);
    this.remove(instrument);
    this.add(market, fence);
  }

  private lost(instrument: string, reason: LossReason): void {
    this.ownershipMetrics.lost(reason);
    if (reason === 'fenced' || reason === 'lost')
      this.logger.warn(
        `${instrument}: another replica may own it now (${reason}); this one stops ingesting it`,
      );
    else this.logger.log(`${instrument}: no longer owned (${reason})`);
    this.remove(instrument);
  }

  private onOwnerRequest(request: OwnerRequest): void {
    for (const instrument of request.instruments) {
      const pipeline = this.ingested.get(instrument)?.pipeline;
      if (!pipeline) continue;
      if (request.kind === 'verify')
        this.ownerWork.add(`verify:${instrument}`, () => this.verify(instrument));
      else if (pipeline.tradeFeed === 'unavailable') this.askCandles(instrument);
    }
  }

  private add(market: MarketInfo, fence: WriteFence | undefined): void {
    const instrument = market.instrument;
    const pipeline = new InstrumentPipeline({
      market,
      bookFeed: this.bookFeed,
      restSnapshot: (name) => this.rest.depth(name, { signal: this.shutdown.signal }),
      tradeFeed: this.tradeFeed && market.gateway ? 'live' : 'unavailable',
      sync: this.syncOptions,
      now: this.now,
      events: {
        onResync: (name, reason, detail) => {
          this.metrics.resync(name, reason);
          this.logger.warn(`${name}: book re-syncs after ${reason}${detail ? ` (${detail})` : ''}`);
        },
        // Logged by the upstream client, at most once in a while: a flood of junk must not flood the log.
        onMalformed: (name) => this.metrics.malformedMessage(name),
        onSnapshotFailed: (name, error) => {
          if (!this.stopped) this.logger.warn(`${name}: REST snapshot failed: ${error.message}`);
        },
        onMessageApplied: () => this.writer.flushIfDue(),
      },
      firstWriteWaitMs: FIRST_WRITE_WAIT_MS,
    });
    pipeline.fence = fence;
    const feeds: { close(): void }[] = [];
    try {
      pipeline.start();
      if (this.tradeFeed && market.gateway) {
        feeds.push(
          this.tradeFeed.open(market, {
            onTrades: (trades) => pipeline.addTrades(trades),
            newestTradeTime: () => pipeline.newestTradeTime(),
            onCaughtUp: () => pipeline.markTradesCaughtUp(),
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
    this.ingested.set(instrument, { market, pipeline, feeds });
    if (pipeline.tradeFeed === 'unavailable') this.askCandles(instrument);
  }

  private remove(instrument: string): void {
    const entry = this.ingested.get(instrument);
    if (!entry) return;
    this.candlesFailing.delete(instrument);
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
            pipeline.setLevel1(
              level1.lastTradedPrice,
              level1.lastTradeTime,
              level1.rolling24hVolume,
              level1.time,
            ),
          onError: (error) =>
            this.logger.warn(`${market.instrument}: unreadable level 1 skipped: ${error.message}`),
        },
      ),
    );
    return { close: () => void subscription.close().catch(() => undefined) };
  }

  private askCandles(instrument: string): void {
    this.ownerWork.add(`candles:${instrument}`, () => this.refreshCandles(instrument));
  }

  /** Checks the book against a REST snapshot, if this replica still owns the instrument. */
  private async verify(instrument: string): Promise<void> {
    const pipeline = this.ingested.get(instrument)?.pipeline;
    if (!pipeline) return;
    try {
      await pipeline.verify();
    } catch (error) {
      this.logger.warn(
        `${pipeline.instrument}: book check skipped, REST snapshot failed: ${(error as Error).message}`,
      );
    }
  }

  private async refreshCandles(instrument: string): Promise<void> {
    const pipeline = this.ingested.get(instrument)?.pipeline;
    if (!pipeline) return;
    const end = this.now();
    try {
      const candles = await this.rest.history(
        pipeline.instrument,
        { start: end - DAY_MS, end, interval: CANDLE_INTERVAL, count: CANDLE_COUNT },
        { signal: this.shutdown.signal },
      );
      pipeline.setCandles(candles);
      if (this.candlesFailing.delete(instrument)) this.logger.log(`${instrument}: candles available again`);
    } catch (error) {
      if (this.stopped) return;
      // Once per spell: the refresh runs again every CANDLE_REFRESH_MS for every such instrument.
      if (!this.candlesFailing.has(instrument))
        this.logger.warn(
          `${instrument}: candles unavailable, the 24-hour figures keep the candles they have: ${(error as Error).message}`,
        );
      this.candlesFailing.add(instrument);
    }
  }
}

function describeInputs(
  inputs: ReadonlyMap<CatalogInputName, CatalogInputHealth>,
): Record<string, Record<string, unknown>> {
  const iso = (time: number | undefined) => (time === undefined ? undefined : new Date(time).toISOString());
  return Object.fromEntries(
    [...inputs].map(([input, health]) => [
      input,
      health.ok
        ? { ok: true, lastGoodAt: iso(health.lastGoodAt) }
        : {
            ok: false,
            problem: health.problem,
            failingSince: iso(health.failingSince),
            keeping: health.lastGoodAt === undefined ? 'nothing' : `version of ${iso(health.lastGoodAt)}`,
          },
    ]),
  );
}

function sameGatewayRef(a: MarketInfo['gateway'], b: MarketInfo['gateway']): boolean {
  return a?.instrumentId === b?.instrumentId && a?.symbol === b?.symbol;
}

/** Every REST call under way or waiting for the budget listens to it, so there is no sane listener cap. */
function abortControllerForAnyNumberOfCalls(): AbortController {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  return controller;
}
