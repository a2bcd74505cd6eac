import { Injectable } from '@nestjs/common';
import { AssetInfo, MarketInfo } from '../../market/market-info';
import { MarketSummary, summarizeMarket } from '../../market/market-summary';
import { EMPTY_STATS } from '../../market/market-stats';
import { TradeRows } from '../../market/trade-columns';
import { DAY_MS } from '../../market/trade-window';
import { BookView, InstrumentHead } from '../../store/state-store';
import { ApiError } from '../http/api-error';
import { echoedInput } from '../http/echoed-input';
import { MarketViews } from './market-views';
import { figuresNewestFirst, TradeFigures } from './trade-figures';

export interface ListedMarket {
  readonly market: MarketInfo;
  /** The market's stable id: the gateway's instrument id when it has one, else its place in the catalogue. */
  readonly id: string;
  readonly summary: MarketSummary;
}

export interface Listing {
  readonly generation: number;
  readonly markets: readonly ListedMarket[];
}

export interface WindowTrades {
  /** Changes whenever the list does: new trades, or trades leaving the 24-hour window. */
  readonly version: string;
  /** The figures, newest first, computed on each call: a body is rendered once per version. */
  trades(): readonly TradeFigures[];
}

/**
 * What every listing family (the exchange's, CoinMarketCap's, CoinGecko's, the REST mirror) is
 * built from, computed once per state version so that they always agree.
 */
@Injectable()
export class ListingService {
  private listing: Listing = { generation: -1, markets: [] };
  /** Each market's entry with the head it was summarized from: only markets whose head moved are summarized again. */
  private summarized = new Map<string, { head: InstrumentHead | undefined; listed: ListedMarket }>();

  constructor(private readonly views: MarketViews) {}

  /** Whether answers are the last good state rather than what the store holds (`X-Data-Stale`). */
  get stale(): boolean {
    return this.views.servesLastGood;
  }

  /** 503 until the first catalogue has been loaded. */
  requireReady(): void {
    if (!this.views.ready) throw ApiError.unavailable('no_data', 'market data is not loaded yet');
  }

  market(name: string): MarketInfo {
    this.requireReady();
    const market = this.views.find(name);
    if (!market) throw ApiError.notFound('unknown_instrument', `unknown instrument ${echoedInput(name)}`);
    return market;
  }

  /** Every listed market; an entry is the same object as long as its market and head are. */
  markets(): Listing {
    this.requireReady();
    const generation = this.views.listingGeneration;
    if (this.listing.generation !== generation) {
      const summarized = new Map<string, { head: InstrumentHead | undefined; listed: ListedMarket }>();
      const markets = this.views.markets().map((market, index) => {
        const head = this.views.head(market.instrument);
        const id = String(market.gateway?.instrumentId ?? index + 1);
        const kept = this.summarized.get(market.instrument);
        const listed =
          kept && kept.head === head && kept.listed.market === market && kept.listed.id === id
            ? kept.listed
            : {
                market,
                id,
                summary: summarizeMarket(
                  market,
                  head?.stats ?? EMPTY_STATS,
                  head?.lastTrade,
                  head?.bestBid,
                  head?.bestAsk,
                ),
              };
        summarized.set(market.instrument, { head, listed });
        return listed;
      });
      this.summarized = summarized;
      this.listing = { generation, markets };
    }
    return this.listing;
  }

  /** The assets of the listed markets: an asset traded only in hidden markets is not listed. */
  assets(): readonly AssetInfo[] {
    this.requireReady();
    const traded = new Set(
      this.views
        .markets()
        .flatMap((market) => [market.baseAsset.toUpperCase(), market.quoteAsset.toUpperCase()]),
    );
    return this.views.assets().filter((asset) => traded.has(asset.symbol));
  }

  /** The name of an asset (upper-case symbol), the symbol itself when the catalogue has none. */
  assetName(symbol: string): string {
    return this.views.assetName(symbol);
  }

  /** What the catalogue says about an asset (upper-case symbol). */
  asset(symbol: string): AssetInfo | undefined {
    return this.views.asset(symbol);
  }

  /** The book, at least `perSide` levels of each side (0: every level). */
  async book(market: MarketInfo, perSide = 0): Promise<BookView> {
    const book =
      perSide === 1 ? this.views.topOfBook(market.instrument) : await this.views.book(market.instrument);
    if (!book) throw ApiError.unavailable('no_data', `no book for ${market.instrument} yet`);
    return book;
  }

  /** The trades of `now - 24h < time <= now`, newest first. */
  async trades(market: MarketInfo, now: number): Promise<WindowTrades> {
    const head = this.views.head(market.instrument);
    if (head?.tradeFeed === 'unavailable') {
      throw ApiError.unavailable(
        'trade_feed_not_configured',
        'the trade feed is not configured: the gateway login (UPSTREAM_EMAIL, UPSTREAM_PASSWORD) is missing',
      );
    }
    const stored = await this.views.tradeList(market.instrument);
    const inWindow = stored.slice(firstAfter(stored, now - DAY_MS), firstAfter(stored, now));
    const edges = inWindow.length > 0 ? `${inWindow.idAt(0)}-${inWindow.idAt(inWindow.length - 1)}` : 'none';
    return {
      version: `${head?.tradesRevision ?? 0}:${inWindow.length}:${edges}`,
      trades: () => figuresNewestFirst(market, inWindow),
    };
  }

  /**
   * When the data behind `instruments` (default: every listed market) was last known current: the
   * oldest confirmation among them, 0 when one was never confirmed.
   */
  dataTime(instruments?: readonly string[]): number {
    let oldest = Number.POSITIVE_INFINITY;
    if (instruments) {
      for (const instrument of instruments) oldest = Math.min(oldest, this.confirmedAt(instrument));
    } else {
      for (const market of this.views.markets())
        oldest = Math.min(oldest, this.confirmedAt(market.instrument));
    }
    return Number.isFinite(oldest) ? oldest : 0;
  }

  private confirmedAt(instrument: string): number {
    return this.views.head(instrument)?.confirmedAt ?? 0;
  }
}

/** Position of the first trade with `time > t` in a list ordered by time. */
function firstAfter(trades: TradeRows, t: number): number {
  let low = 0;
  let high = trades.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (trades.timeAt(middle) <= t) low = middle + 1;
    else high = middle;
  }
  return low;
}
