import { Module } from '@nestjs/common';
import { StateStore } from '../store/state-store';
import { STATE_STORE } from '../store/store.module';
import { ApiReadiness } from './api-readiness';
import { ApiRoutes } from './api-routes';
import { ChartBars } from './charts/chart-bars';
import { StoredChartBars } from './charts/stored-chart-bars';
import { CmcEndpoints } from './cmc/cmc-endpoints';
import { CoingeckoEndpoints } from './coingecko/coingecko-endpoints';
import { ConsoleObserver } from './console/console-observer';
import { ConsoleState } from './console/console-state';
import { ListingHealthEndpoints } from './listing-health/listing-health-endpoints';
import { ListingHealthService } from './listing-health/listing-health-service';
import { ListingEndpoints } from './listing/listing-endpoints';
import { MirrorEndpoints } from './mirror/mirror-endpoints';
import { StreamServer } from './stream/stream-server';
import { ChartMarkets } from './tradingview/chart-markets';
import { ChartReplies } from './tradingview/chart-replies';
import { TradingViewEndpoints } from './tradingview/tradingview-endpoints';
import { UdfEndpoints } from './udf/udf-endpoints';
import { TradingViewStreaming } from './tradingview/tradingview-streaming';
import { ExchangeCatalog } from './views/exchange-catalog';
import { BOOK_CACHE_MAX_LEVELS } from './views/market-books';
import { ListingService } from './views/listing-service';
import { MarketViews } from './views/market-views';
import { Responder } from './views/responder';

/** The API role: every listing endpoint, the listing health and the REST mirror, served from the stored state (`ApiRoutes`),
 * the live stream (`StreamServer`), and the operator console and status page (`ConsoleState`). */
@Module({
  providers: [
    {
      provide: MarketViews,
      inject: [STATE_STORE],
      useFactory: (store: StateStore) => new MarketViews(store, BOOK_CACHE_MAX_LEVELS),
    },
    { provide: ChartBars, useClass: StoredChartBars },
    ListingService,
    ExchangeCatalog,
    Responder,
    ApiReadiness,
    ListingEndpoints,
    CmcEndpoints,
    CoingeckoEndpoints,
    MirrorEndpoints,
    ListingHealthService,
    ListingHealthEndpoints,
    ChartMarkets,
    ChartReplies,
    TradingViewEndpoints,
    UdfEndpoints,
    ApiRoutes,
    StreamServer,
    TradingViewStreaming,
    ConsoleObserver,
    ConsoleState,
  ],
  exports: [MarketViews],
})
export class ApiModule {}
