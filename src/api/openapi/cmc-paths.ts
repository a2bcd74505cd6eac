import { CMC_SCHEMAS } from '../cmc/cmc-schemas';
import { EndpointFamily, schemaRef } from './endpoint-family';
import { CMC_DEPTH, CMC_LEVEL, instrumentPath } from './parameters';
import { cachedJsonResponses } from './responses';

/** The paths of CoinMarketCap's spot formats. */

const pair = instrumentPath('pair', 'BTC_USDT');
export const CMC: EndpointFamily = {
  tag: { name: 'coinmarketcap', description: "CoinMarketCap's spot formats" },
  schemas: CMC_SCHEMAS,
  paths: {
    '/cmc/summary': {
      get: {
        operationId: 'cmcSummary',
        tags: ['coinmarketcap'],
        summary:
          'Every listed market: last price, best prices, 24-hour volumes, change in percent, high and low',
        description:
          'An array with one record per listed market; a market without a known trade is left out, as CoinMarketCap requires a last price.',
        responses: cachedJsonResponses('every listed market', schemaRef('CmcSummaries'), 'live'),
      },
    },
    '/cmc/assets': {
      get: {
        operationId: 'cmcAssets',
        tags: ['coinmarketcap'],
        summary: 'Assets of the listed markets, keyed by upper-case symbol',
        description: 'Fields not known for an asset are left out; `name` is always there.',
        responses: cachedJsonResponses('assets by symbol', schemaRef('CmcAssets'), 'catalog'),
      },
    },
    '/cmc/ticker': {
      get: {
        operationId: 'cmcTicker',
        tags: ['coinmarketcap'],
        summary: 'Every listed market, keyed by upper-case BASE_QUOTE: last price, 24-hour volumes, isFrozen',
        description:
          'The Unified Cryptoasset IDs are given only when the assets file names them; a market without a known trade is left out.',
        responses: cachedJsonResponses('markets by BASE_QUOTE', schemaRef('CmcTickers'), 'live'),
      },
    },
    '/cmc/orderbook/{pair}': {
      get: {
        operationId: 'cmcOrderBook',
        tags: ['coinmarketcap'],
        summary:
          "A market's book: bids descending, asks ascending, full depth unless `depth` or `level` says less",
        description:
          'Served from the live book the gateway holds; `timestamp` is its last change. An unknown or hidden market is a 404.',
        parameters: [pair, CMC_DEPTH, CMC_LEVEL],
        responses: cachedJsonResponses('the book', schemaRef('CmcOrderBook'), 'live', {
          badRequest: true,
          notFound: true,
        }),
      },
    },
    '/cmc/trades/{pair}': {
      get: {
        operationId: 'cmcTrades',
        tags: ['coinmarketcap'],
        summary: "A market's trades of the last 24 hours, newest first; type is the taker side",
        description:
          'Every trade the gateway holds of the last 24 hours; without the trade feed (no gateway login) the answer is a 503.',
        parameters: [pair],
        responses: cachedJsonResponses('the trades', schemaRef('CmcTrades'), 'live', {
          badRequest: true,
          notFound: true,
          trades: true,
        }),
      },
    },
  },
};
