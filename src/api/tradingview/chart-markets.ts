import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { chartSymbols } from '../../market/bars/chart-symbol';
import { MarketInfo } from '../../market/market-info';
import { ListingService } from '../views/listing-service';
import { MarketViews } from '../views/market-views';

/** A listed market under its TradingView name. */
export interface ChartMarket {
  readonly market: MarketInfo;
  /** `BTCUSDT`, or `BTC_USDT` where two markets would share the plain name. */
  readonly symbol: string;
}

export interface ChartMarketList {
  /** Changes whenever the list of listed markets does. */
  readonly markets: readonly ChartMarket[];
  readonly bySymbol: ReadonlyMap<string, ChartMarket>;
}

/**
 * The listed markets under the names TradingView's endpoints and the UDF datafeed give them, and the
 * exchange's name shown beside them. A `symbol` parameter names a market by that name or as the
 * instrument (`btc_usdt`, `BTC-USDT`, any letter case).
 */
@Injectable()
export class ChartMarkets {
  private list: { source: readonly MarketInfo[]; value: ChartMarketList } = {
    source: [],
    value: { markets: [], bySymbol: new Map() },
  };

  constructor(
    private readonly listing: ListingService,
    private readonly views: MarketViews,
    private readonly config: AppConfig,
  ) {}

  /** Every listed market, sorted by instrument; 503 until the catalogue is loaded. */
  all(): ChartMarketList {
    this.listing.requireReady();
    const markets = this.views.markets();
    if (this.list.source !== markets) {
      const symbols = chartSymbols(markets);
      const entries = markets.map((market) => ({ market, symbol: symbols.get(market.instrument)! }));
      this.list = {
        source: markets,
        value: { markets: entries, bySymbol: new Map(entries.map((entry) => [entry.symbol, entry])) },
      };
    }
    return this.list.value;
  }

  /** The market `name` gives, by its TradingView name or as the instrument; undefined when none. */
  find(name: string): ChartMarket | undefined {
    const list = this.all();
    const bySymbol = list.bySymbol.get(name.toUpperCase());
    if (bySymbol) return bySymbol;
    const market = this.views.find(name);
    return market ? list.markets.find((entry) => entry.market === market) : undefined;
  }

  /** Upper case, as TradingView wants `exchange-listed` and `exchange-traded`. */
  get exchange(): string {
    return this.config.CHARTS_EXCHANGE_NAME ?? (this.views.sandbox ? 'SANDBOX' : 'EXCHANGE');
  }
}
