import { Inject, Injectable, Optional } from '@nestjs/common';
import { Registry } from 'prom-client';
import { AppConfig } from '../../config/app-config';
import { Tuning } from '../../config/tuning';
import { ExactRatio } from '../../market/exact-ratio';
import { BandDepth, BookLiquidity, bookLiquidity } from '../../market/listing-health/book-liquidity';
import { ListingThresholds } from '../../market/listing-health/listing-thresholds';
import { HealthReport } from '../../market/listing-health/health-figures';
import { marketHealth } from '../../market/listing-health/market-health';
import { PriceSource, UsdPrices } from '../../market/listing-health/usd-prices';
import { isFrozen, MarketInfo } from '../../market/market-info';
import { EMPTY_STATS } from '../../market/market-stats';
import { ListingService } from '../views/listing-service';
import { InstrumentHead } from '../../store/state-store';
import { MarketViews } from '../views/market-views';
import { BAR_ARCHIVE, BarArchive } from '../../store/bar-archive';
import { ChartMismatchFlags } from './chart-mismatch-flags';
import { ListingHealthMetrics } from './listing-health-metrics';

/** Books read at once during a refresh: enough to hide the store's round trips, few enough not to crowd it. */
const PARALLEL_BOOK_READS = 8;
/** Figures older than this many refresh intervals are not served while new ones are computed. */
const SERVE_STALE_INTERVALS = 3;

/** CoinGecko reads ±2 % depth for liquidity: a spread wider than that band leaves it empty on one side. */
const MAX_SPREAD_PERCENT = '2';
/** Neither aggregator publishes a minimum depth: a thousand dollars each side, the least a listing pair shows. */
const MIN_DEPTH_USD = '1000';
/** A 24-hour volume of a hundred times the ±2 % depth is what CoinGecko's review calls volume that "seems fake". */
const VOLUME_DEPTH_RATIO = '100';

/** The ±2 % depths of one book as read. */
interface BookDepths {
  readonly version: number;
  readonly updatedAt: number;
  readonly plus?: BandDepth;
  readonly minus?: BandDepth;
}

interface BooksRead {
  readonly at: number;
  readonly depths: ReadonlyMap<string, BookDepths>;
}

/**
 * The listing-health figures of every listed market. The best prices, volumes, ages and status are
 * the heads' of the moment asked, and so are the dollar prices, from the markets' mids. The ±2 %
 * depths need whole books: those whose version moved are read, a few at a time and kept nowhere, when
 * the figures are asked for and older than `listingHealthRefreshMs` (tuning), and nothing is read while
 * nobody asks.
 */
@Injectable()
export class ListingHealthService {
  readonly thresholds: ListingThresholds;
  readonly references: readonly string[];
  private readonly refreshMs: number;
  private books?: BooksRead;
  private reading?: Promise<BooksRead>;
  private readonly chartFlags?: ChartMismatchFlags;

  constructor(
    private readonly listing: ListingService,
    private readonly views: MarketViews,
    config: AppConfig,
    tuning: Tuning,
    registry: Registry,
    @Optional() @Inject(BAR_ARCHIVE) archive?: BarArchive,
  ) {
    if (archive) this.chartFlags = new ChartMismatchFlags(archive, tuning.listingHealthRefreshMs);
    this.references = config.USD_REFERENCE_ASSETS.split(',');
    this.refreshMs = tuning.listingHealthRefreshMs;
    this.thresholds = {
      maxSpreadPercent: ExactRatio.of(MAX_SPREAD_PERCENT),
      minDepthUsd: ExactRatio.of(MIN_DEPTH_USD),
      staleTradesMs: tuning.listingStaleTradesMs,
      staleBookMs: tuning.listingStaleBookMs,
      volumeToDepthRatio: ExactRatio.of(VOLUME_DEPTH_RATIO),
    };
    new ListingHealthMetrics(registry, async () => (views.ready ? this.report() : undefined));
  }

  /** Every listed market's figures, in instrument order. */
  async report(): Promise<HealthReport> {
    const markets = this.listing.markets().markets.map((listed) => listed.market);
    const books = await this.currentBooks(markets);
    const chartFlags = await this.chartFlags?.flags(
      markets.map((market) => market.instrument),
      Date.now(),
    );
    const now = Date.now();
    const current = markets.map((market) => currentTop(market, this.views.head(market.instrument)));
    const prices = new UsdPrices(this.references, priceSources(current));
    return {
      generatedAt: now,
      booksReadAt: books.at,
      markets: current.map(({ market, head, top }) => {
        const depths = books.depths.get(market.instrument);
        const health = marketHealth(
          {
            market,
            stats: head?.stats ?? EMPTY_STATS,
            lastTradeTime: head?.lastTrade?.time || undefined,
            confirmedAt: head?.confirmedAt ?? 0,
            syncState: head?.syncState,
            bookVersion: depths?.version,
            liquidity: { ...top, plusDepth: depths?.plus, minusDepth: depths?.minus },
            quoteUsd: prices.of(market.quoteAsset.toUpperCase()),
            now,
          },
          this.thresholds,
        );
        const chartFlag = chartFlags?.get(market.instrument);
        return chartFlag ? { ...health, flags: [...health.flags, chartFlag] } : health;
      }),
    };
  }

  /** The books read last, or read again when too old: waited for only when too old to serve meanwhile. */
  private async currentBooks(markets: readonly MarketInfo[]): Promise<BooksRead> {
    const age = this.books ? Date.now() - this.books.at : Number.POSITIVE_INFINITY;
    if (age < this.refreshMs) return this.books!;
    this.reading ??= this.readBooks(markets).finally(() => (this.reading = undefined));
    if (this.books && age < this.refreshMs * SERVE_STALE_INTERVALS) return this.books;
    return this.reading;
  }

  private async readBooks(markets: readonly MarketInfo[]): Promise<BooksRead> {
    const at = Date.now();
    const previous = this.books?.depths;
    const depths = new Map<string, BookDepths>();
    let next = 0;
    const reader = async () => {
      while (next < markets.length) {
        const { instrument } = markets[next++];
        const known = previous?.get(instrument);
        const head = this.views.head(instrument);
        if (known && known.version === head?.bookVersion && known.updatedAt === head.bookUpdatedAt) {
          depths.set(instrument, known);
          continue;
        }
        // Without a book in memory and with the store failing, the depths are null.
        const book = await this.views.bookOnce(instrument).catch(() => undefined);
        if (!book) continue;
        const { plusDepth, minusDepth } = bookLiquidity(book.bids, book.asks);
        depths.set(instrument, {
          version: book.version,
          updatedAt: book.updatedAt,
          plus: plusDepth,
          minus: minusDepth,
        });
      }
    };
    await Promise.all(Array.from({ length: PARALLEL_BOOK_READS }, reader));
    return (this.books = { at, depths });
  }
}

/** A market with its head and the head's best prices, mid and spread, all of one moment. */
interface CurrentTop {
  readonly market: MarketInfo;
  readonly head?: InstrumentHead;
  /** Current, where the depths are of the last books read. */
  readonly top: BookLiquidity;
}

function currentTop(market: MarketInfo, head: InstrumentHead | undefined): CurrentTop {
  const top = bookLiquidity(head?.bestBid ? [head.bestBid] : [], head?.bestAsk ? [head.bestAsk] : []);
  return { market, head, top };
}

/** Markets trusted to price an asset: live, not frozen, with both sides and not crossed. */
function priceSources(current: readonly CurrentTop[]): PriceSource[] {
  const sources: PriceSource[] = [];
  for (const { market, head, top } of current) {
    if (!top.mid || top.crossed || isFrozen(market) || head?.syncState !== 'live') continue;
    sources.push({
      instrument: market.instrument,
      base: market.baseAsset.toUpperCase(),
      quote: market.quoteAsset.toUpperCase(),
      mid: top.mid,
    });
  }
  return sources;
}
