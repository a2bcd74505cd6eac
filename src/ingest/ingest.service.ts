import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';
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
import { ReconnectBackoff } from '../upstream/reconnect-backoff';
import { RestClient } from '../upstream/rest/rest-client';
import { CatalogInputHealth, CatalogInputName } from './catalog/catalog-inputs';
import { CatalogRefresher } from './catalog/catalog-refresher';
import { BOOK_FEED, BookFeed } from './feeds/book-feed';
import { TRADE_FEED, TradeFeed } from './feeds/trade-feed';
import { CATALOG_REFRESH_JOB, ingestJobs } from './ingest-jobs';
import { IngestMetrics } from './ingest-metrics';
import { IngestedInstruments } from './ingested-instruments';
import { InstrumentPipeline } from './instrument-pipeline';
import { OWNER_REQUESTS, OwnerRequest, OwnerRequests } from './owner-requests/owner-request';
import { INSTRUMENT_OWNERSHIP, InstrumentOwnership, LossReason } from './ownership/instrument-ownership';
import { OwnershipMetrics } from './ownership/ownership-metrics';
import { SerialWork } from './serial-work';
import { ShutdownSignal } from './shutdown-signal';
import { StateWriter } from './state-writer';
import { UpstreamConnections } from './upstream-connections';

const TICK_MS = 50;
/** Candles of 5 minutes cover 24 hours in one request (288 buckets, within the 1,000 limit). */
const CANDLE_INTERVAL = '5m';
const CANDLE_COUNT = 289;
/** How long a newly owned instrument may sync before its first write replaces the stored state anyway. */
const FIRST_WRITE_WAIT_MS = 5_000;

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
  private readonly ownerWork = new SerialWork();
  /** Both feeds answer a (re)subscription with a snapshot, which is cheaper than a REST snapshot. */
  private readonly syncOptions: BookSyncOptions = { recovery: 'reopen-stream' };
  /** The newest catalogue loaded, and its listed (not hidden) markets by instrument. */
  private loadedCatalog?: MarketCatalog;
  private listed = new Map<string, MarketInfo>();
  private ticker?: NodeJS.Timeout;
  private catalogTimer?: NodeJS.Timeout;
  private catalogRetry?: NodeJS.Timeout;
  private stopListening?: () => void;
  /** Instruments whose last candle refresh failed; they keep the candles they had. */
  private readonly candlesFailing = new Set<string>();

  constructor(
    @Inject(AppConfig) private readonly config: AppConfig,
    @Inject(STATE_STORE) private readonly store: StateStore,
    @Inject(RestClient) private readonly rest: RestClient,
    @Inject(GatewayClient) private readonly gateway: GatewayClient,
    @Inject(UpstreamConnections) private readonly upstream: UpstreamConnections,
    @Inject(BOOK_FEED) private readonly bookFeed: BookFeed,
    @Inject(TRADE_FEED) private readonly tradeFeed: TradeFeed | null,
    @Inject(CatalogRefresher) private readonly catalog: CatalogRefresher,
    @Inject(StateWriter) private readonly writer: StateWriter,
    @Inject(IngestMetrics) private readonly metrics: IngestMetrics,
    @Inject(OwnershipMetrics) private readonly ownershipMetrics: OwnershipMetrics,
    @Inject(IngestedInstruments) private readonly ingested: IngestedInstruments,
    @Inject(ShutdownSignal) private readonly shutdown: ShutdownSignal,
    @Inject(Readiness) readiness: Readiness,
    @Inject(INSTRUMENT_OWNERSHIP) private readonly ownership: InstrumentOwnership,
    @Inject(OWNER_REQUESTS) private readonly ownerRequests: OwnerRequests,
    @Inject(JOB_SCHEDULER) private readonly jobs: JobScheduler,
  ) {
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
          upstream: this.upstream.describe(),
          // Not part of `ready`: with an input failing the catalogue keeps its last good version.
          catalogInputs: describeInputs(this.catalog.inputs.health()),
          candlesUnavailable: [...this.candlesFailing],
        };
      },
    });
  }

  pipelines(): InstrumentPipeline[] {
    return this.ingested.pipelines();
  }

  onApplicationBootstrap(): void {
    this.upstream.start();
    this.writer.start();
    this.catalog.start();
    this.ticker = setInterval(() => {
      for (const pipeline of this.pipelines()) pipeline.tick();
    }, TICK_MS);
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
    this.shutdown.abort();
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
    for (const instrument of this.ingested.instruments()) this.remove(instrument);
    await this.upstream.stop();
  }

  /**
   * The stored catalogue, until one is loaded. The refresh job runs at start where the schedule is
   * new (and in-process), so it is asked for again only when nothing came within the first wait.
   */
  private async loadCatalogUntilItWorks(): Promise<void> {
    const backoff = new ReconnectBackoff({ initialDelayMs: 4_000, maxDelayMs: 30_000 });
    for (let attempt = 0; ; attempt++) {
      await this.loadStoredCatalog();
      if (this.loadedCatalog || this.shutdown.stopping) return;
      await new Promise((resolve) => {
        this.catalogRetry = setTimeout(resolve, backoff.delay(attempt));
      });
      if (this.loadedCatalog || this.shutdown.stopping) return;
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
    if (!catalog || this.shutdown.stopping) return;
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
    for (const [instrument, entry] of this.ingested.entries()) {
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
    if (!market || this.shutdown.stopping) return;
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
      const pipeline = this.ingested.pipeline(instrument);
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
          if (!this.shutdown.stopping) this.logger.warn(`${name}: REST snapshot failed: ${error.message}`);
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
    this.ingested.add({ market, pipeline, feeds });
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
    const pipeline = this.ingested.pipeline(instrument);
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
    const pipeline = this.ingested.pipeline(instrument);
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
      if (this.shutdown.stopping) return;
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
