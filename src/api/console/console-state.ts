import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { AppConfig, usesRedis } from '../../config/app-config';
import { Tuning } from '../../config/tuning';
import { instanceId } from '../../config/instance-id';
import { ingests } from '../../config/role';
import { ListingHealthService } from '../listing-health/listing-health-service';
import { bookSides } from '../views/book-sides';
import { ListingService } from '../views/listing-service';
import { MarketViews } from '../views/market-views';
import { tradeFigures } from '../views/trade-figures';
import { ConsoleObserver } from './console-observer';
import type { MarketDetail } from './console-schemas';
import { ConsoleSnapshot, consoleSnapshot } from './console-snapshot';
import { ServerSentFeed } from './server-sent-feed';
import { StatusSnapshot, statusSnapshot } from './status-snapshot';

/** Levels a side and trades the market page shows: enough for its depth chart and a glance. */
const DETAIL_LEVELS = 100;
const DETAIL_TRADES = 50;

/**
 * One market's book and newest trades, for the console's market page, in the listing endpoints'
 * published form: prices at the market's price scale, amounts at its amount scale.
 */
export type { MarketDetail };

/**
 * What the two pages show, built from the API's copy of the stored state, the listing-health report
 * and what the process observed, and the two live feeds that carry it.
 */
@Injectable()
export class ConsoleState implements OnModuleDestroy {
  readonly consoleFeed: ServerSentFeed;
  readonly statusFeed: ServerSentFeed;
  private readonly self: { id: string; role: string; ingests: boolean };

  constructor(
    private readonly health: ListingHealthService,
    private readonly listing: ListingService,
    private readonly views: MarketViews,
    private readonly observer: ConsoleObserver,
    private readonly config: AppConfig,
    private readonly tuning: Tuning,
  ) {
    this.self = { id: instanceId(config), role: config.ROLE, ingests: ingests(config.ROLE) };
    this.consoleFeed = new ServerSentFeed('console', () => this.console(), {
      heartbeatMs: 1_000,
      minIntervalMs: 200,
    });
    this.statusFeed = new ServerSentFeed('status', async () => this.status(), {
      heartbeatMs: 5_000,
      minIntervalMs: 1_000,
    });
    observer.onChange(() => {
      this.consoleFeed.changed();
      this.statusFeed.changed();
    });
  }

  /** Before the HTTP server closes, which would wait for the feeds' open responses. */
  onModuleDestroy(): void {
    this.closeFeeds();
  }

  closeFeeds(): void {
    this.consoleFeed.close();
    this.statusFeed.close();
  }

  async console(): Promise<ConsoleSnapshot> {
    this.listing.requireReady();
    const report = await this.health.report();
    const lastPrices = new Map(
      this.listing.markets().markets.map(({ market, summary }) => [market.instrument, summary.last]),
    );
    return consoleSnapshot({
      now: report.generatedAt,
      staleAfterMs: this.tuning.staleAfterMs,
      markets: report.markets,
      heads: (instrument) => this.views.head(instrument),
      lastPrice: (instrument) => lastPrices.get(instrument) ?? null,
      storeReachable: !this.views.stale,
      sandbox: this.views.sandbox,
      redis: usesRedis(this.config),
      ownership: this.observer.ownership(),
      self: this.self,
      upstream: this.observer.upstream(),
      restBudget: this.observer.restBudget(),
      events: this.observer.recentEvents(),
      freshness: this.observer.freshness(),
    });
  }

  status(): StatusSnapshot {
    this.listing.requireReady();
    const now = Date.now();
    return statusSnapshot({
      now,
      staleAfterMs: this.tuning.staleAfterMs,
      storeReachable: !this.views.stale,
      sandbox: this.views.sandbox,
      markets: this.views.markets().map((market) => {
        const head = this.views.head(market.instrument);
        return {
          market: market.instrument.toUpperCase(),
          syncState: head?.syncState,
          dataAgeMs: head && head.confirmedAt > 0 ? Math.max(0, now - head.confirmedAt) : null,
        };
      }),
      events: this.observer.recentEvents(),
    });
  }

  async market(name: string): Promise<MarketDetail> {
    const market = this.listing.market(name);
    const { instrument } = market;
    const [book, trades] = await Promise.all([this.views.book(instrument), this.views.tradeList(instrument)]);
    const sides = book ? bookSides(market, book, DETAIL_LEVELS, 2) : { bids: [], asks: [] };
    return {
      market: instrument.toUpperCase(),
      base: market.baseAsset.toUpperCase(),
      quote: market.quoteAsset.toUpperCase(),
      version: book?.version ?? null,
      bids: sides.bids,
      asks: sides.asks,
      trades: trades
        .toArray(Math.max(0, trades.length - DETAIL_TRADES))
        .reverse()
        .map((trade) => {
          const { id, price, baseVolume, side, time } = tradeFigures(market, trade);
          return { id, price, amount: baseVolume, side, time };
        }),
    };
  }
}
