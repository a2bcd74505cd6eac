import { Inject, Injectable, Logger } from '@nestjs/common';
import { normalizeInstrument } from '../../market/instrument-name';
import { MarketCatalog, MarketInfo } from '../../market/market-info';
import { StateStore } from '../../store/state-store';
import { STATE_STORE } from '../../store/store.module';
import { ApiError } from '../http/api-error';
import { MarketViews } from './market-views';
import { SingleFlight } from './single-flight';

/**
 * The whole stored catalogue, hidden markets included, for what mirrors the exchange rather than
 * lists markets to aggregators. It follows the listing views: it is read again from the store only
 * when the catalogue they hold has changed, so both always describe the same refresh.
 */
@Injectable()
export class ExchangeCatalog {
  private readonly logger = new Logger(ExchangeCatalog.name);
  private cached?: { readonly catalog: MarketCatalog; readonly byInstrument: Map<string, MarketInfo> };
  private readonly loads = new SingleFlight<'catalog', MarketCatalog | undefined>();

  constructor(
    @Inject(STATE_STORE) private readonly store: StateStore,
    private readonly views: MarketViews,
  ) {}

  /** 503 until a catalogue has been loaded. */
  async catalog(): Promise<MarketCatalog> {
    if (!this.views.ready) throw ApiError.unavailable('no_data', 'market data is not loaded yet');
    const refreshedAt = this.views.catalogRefreshedAt();
    if (this.cached?.catalog.refreshedAt === refreshedAt) return this.cached.catalog;
    try {
      const catalog = await this.loads.run('catalog', () => this.store.readCatalog());
      if (catalog)
        this.cached = {
          catalog,
          byInstrument: new Map(catalog.markets.map((market) => [market.instrument, market])),
        };
    } catch (error) {
      if (!this.cached)
        throw ApiError.unavailable('store_unavailable', 'the market catalogue cannot be read');
      this.logger.warn(`catalogue served from memory, the store failed: ${(error as Error).message}`);
    }
    if (!this.cached) throw ApiError.unavailable('no_data', 'market data is not loaded yet');
    return this.cached.catalog;
  }

  /** Any market of the catalogue, hidden or not, named in any letter case with `_` or `-`. */
  async find(name: string): Promise<MarketInfo | undefined> {
    await this.catalog();
    return this.cached?.byInstrument.get(normalizeInstrument(name));
  }
}
