import { Inject, Injectable, Logger } from '@nestjs/common';
import { Tuning } from '../../config/tuning';
import { MarketCatalog, MarketInfo } from '../../market/market-info';
import { JOB_SCHEDULER, JobScheduler } from '../../scheduler/scheduled-job';
import { StateStore } from '../../store/state-store';
import { STATE_STORE } from '../../store/store.module';
import { ReconnectBackoff } from '../../upstream/reconnect-backoff';
import { CATALOG_REFRESH_JOB } from '../ingest-jobs';
import { ShutdownSignal } from '../shutdown-signal';
import { CatalogRefresher } from './catalog-refresher';

/**
 * Keeps the newest stored catalogue and its listed (not hidden) markets: read on each change notice
 * and now and then once started, and handed to `onListed` whenever a newer one is loaded.
 */
@Injectable()
export class CatalogFollower {
  private readonly logger = new Logger(CatalogFollower.name);
  private loaded?: MarketCatalog;
  private listedMarkets = new Map<string, MarketInfo>();
  private onListed: (listed: ReadonlyMap<string, MarketInfo>) => void = () => undefined;
  private timer?: NodeJS.Timeout;
  private retry?: NodeJS.Timeout;
  private stopListening?: () => void;

  constructor(
    @Inject(STATE_STORE) private readonly store: StateStore,
    @Inject(JOB_SCHEDULER) private readonly jobs: JobScheduler,
    @Inject(Tuning) private readonly tuning: Tuning,
    @Inject(ShutdownSignal) private readonly shutdown: ShutdownSignal,
    @Inject(CatalogRefresher) private readonly refresher: Pick<CatalogRefresher, 'remember'>,
  ) {}

  /** The listed markets by instrument. */
  get listed(): ReadonlyMap<string, MarketInfo> {
    return this.listedMarkets;
  }

  start(onListed: (listed: ReadonlyMap<string, MarketInfo>) => void): void {
    this.onListed = onListed;
    this.stopListening = this.store.onChange((notice) => {
      if (notice.kind === 'catalog') void this.load();
    });
    // Change notices are fire-and-forget: the stored catalogue is also read now and then.
    this.timer = setInterval(() => void this.load(), this.tuning.catalogRefreshMs);
  }

  stop(): void {
    clearInterval(this.timer);
    clearTimeout(this.retry);
    this.stopListening?.();
  }

  /**
   * The stored catalogue, until one is loaded. The refresh job runs at start where the schedule is
   * new (and in-process), so it is asked for again only when nothing came within the first wait.
   */
  async loadUntilItWorks(): Promise<void> {
    const backoff = new ReconnectBackoff({ initialDelayMs: 4_000, maxDelayMs: 30_000 });
    for (let attempt = 0; ; attempt++) {
      await this.load();
      if (this.loaded || this.shutdown.stopping) return;
      await new Promise((resolve) => {
        this.retry = setTimeout(resolve, backoff.delay(attempt));
      });
      if (this.loaded || this.shutdown.stopping) return;
      this.logger.warn('no market catalogue yet, asking for a refresh');
      await this.jobs.runSoon(CATALOG_REFRESH_JOB).catch((error: Error) => {
        this.logger.warn(`market catalogue refresh not requested: ${error.message}`);
      });
    }
  }

  async load(): Promise<void> {
    let catalog: MarketCatalog | undefined;
    try {
      catalog = await this.store.readCatalog();
    } catch (error) {
      this.logger.warn(`market catalogue unreadable, keeping the last one: ${(error as Error).message}`);
      return;
    }
    if (!catalog || this.shutdown.stopping) return;
    // Two reads may cross; the older catalogue never replaces the newer.
    if (this.loaded && catalog.refreshedAt <= this.loaded.refreshedAt) return;
    this.loaded = catalog;
    this.refresher.remember(catalog);
    this.listedMarkets = new Map(
      catalog.markets.filter((market) => !market.hidden).map((market) => [market.instrument, market]),
    );
    this.onListed(this.listedMarkets);
  }
}
