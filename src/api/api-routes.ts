import { Injectable } from '@nestjs/common';
import { CmcEndpoints } from './cmc/cmc-endpoints';
import { CoingeckoEndpoints } from './coingecko/coingecko-endpoints';
import type { ApiRequest } from './http/api-http';
import type { ApiRoute } from './http/api-route';
import { ListingHealthEndpoints } from './listing-health/listing-health-endpoints';
import { ListingEndpoints } from './listing/listing-endpoints';
import { MirrorEndpoints } from './mirror/mirror-endpoints';
import { TradingViewEndpoints } from './tradingview/tradingview-endpoints';
import { UdfEndpoints } from './udf/udf-endpoints';

/**
 * Every route of the API, declared once: Fastify serves them all, the fast path the ones marked
 * `fastPath`. The OpenAPI document in `openapi/` describes them; a test holds the two together.
 */
@Injectable()
export class ApiRoutes {
  readonly all: readonly ApiRoute[];

  constructor(
    listing: ListingEndpoints,
    cmc: CmcEndpoints,
    coingecko: CoingeckoEndpoints,
    mirror: MirrorEndpoints,
    health: ListingHealthEndpoints,
    tradingView: TradingViewEndpoints,
    udf: UdfEndpoints,
  ) {
    this.all = [
      { path: '/asset', fastPath: true, handler: (request, reply) => listing.asset(request, reply) },
      { path: '/summary', fastPath: true, handler: (request, reply) => listing.summary(request, reply) },
      { path: '/ticker', fastPath: true, handler: (request, reply) => listing.ticker(request, reply) },
      {
        path: '/orderbook/:instrument',
        fastPath: true,
        handler: (request, reply) =>
          listing.orderbook(param(request, 'instrument'), query(request), request, reply),
      },
      {
        path: '/trades/:instrument',
        fastPath: true,
        handler: (request, reply) => listing.trades(param(request, 'instrument'), request, reply),
      },
      {
        path: '/listing-health',
        fastPath: false,
        handler: (request, reply) => health.all(request, reply),
      },
      {
        path: '/listing-health/:instrument',
        fastPath: false,
        handler: (request, reply) => health.one(param(request, 'instrument'), request, reply),
      },
      { path: '/cmc/summary', fastPath: false, handler: (request, reply) => cmc.summary(request, reply) },
      { path: '/cmc/assets', fastPath: false, handler: (request, reply) => cmc.assets(request, reply) },
      { path: '/cmc/ticker', fastPath: false, handler: (request, reply) => cmc.ticker(request, reply) },
      {
        path: '/cmc/orderbook/:pair',
        fastPath: false,
        handler: (request, reply) => cmc.orderbook(param(request, 'pair'), query(request), request, reply),
      },
      {
        path: '/cmc/trades/:pair',
        fastPath: false,
        handler: (request, reply) => cmc.trades(param(request, 'pair'), request, reply),
      },
      {
        path: '/coingecko/pairs',
        fastPath: true,
        handler: (request, reply) => coingecko.pairs(request, reply),
      },
      {
        path: '/coingecko/tickers',
        fastPath: true,
        handler: (request, reply) => coingecko.tickers(request, reply),
      },
      {
        path: '/coingecko/orderbook',
        fastPath: false,
        handler: (request, reply) => coingecko.orderbook(query(request), request, reply),
      },
      {
        path: '/coingecko/historical_trades',
        fastPath: false,
        handler: (request, reply) => coingecko.historicalTrades(query(request), request, reply),
      },
      {
        path: '/frontoffice/api/info',
        fastPath: false,
        handler: (request, reply) => mirror.info(request, reply),
      },
      {
        path: '/marketdata/instruments/:instrument/depth',
        fastPath: false,
        handler: (request, reply) => mirror.depth(param(request, 'instrument'), request, reply),
      },
      {
        path: '/marketdata/instruments/:instrument/history',
        fastPath: false,
        handler: (request, reply) =>
          mirror.history(param(request, 'instrument'), query(request), request, reply),
      },
      ...chartRoutes(tradingView, udf),
    ];
  }
}

/** TradingView's data integration and the Charting Library's UDF datafeed. */
function chartRoutes(tradingView: TradingViewEndpoints, udf: UdfEndpoints): ApiRoute[] {
  return [
    {
      path: '/tradingview/symbol_info',
      fastPath: false,
      handler: (request, reply) => tradingView.symbolInfo(request, reply),
    },
    {
      path: '/tradingview/history',
      fastPath: false,
      handler: (request, reply) => tradingView.history(query(request), request, reply),
    },
    { path: '/udf/config', fastPath: false, handler: (request, reply) => udf.config(request, reply) },
    {
      path: '/udf/symbols',
      fastPath: false,
      handler: (request, reply) => udf.symbols(query(request), request, reply),
    },
    {
      path: '/udf/search',
      fastPath: false,
      handler: (request, reply) => udf.search(query(request), request, reply),
    },
    {
      path: '/udf/history',
      fastPath: false,
      handler: (request, reply) => udf.history(query(request), request, reply),
    },
    { path: '/udf/time', fastPath: false, handler: (_request, reply) => udf.time(reply) },
  ];
}

function param(request: ApiRequest, name: string): string {
  return (request.params as Record<string, string>)[name];
}

function query(request: ApiRequest): Record<string, unknown> {
  return request.query as Record<string, unknown>;
}
