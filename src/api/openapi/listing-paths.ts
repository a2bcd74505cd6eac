import { LISTING_SCHEMAS } from '../listing/listing-schemas';
import { EndpointFamily, schemaRef } from './endpoint-family';
import { EVEN_DEPTH, instrumentPath, LEVEL } from './parameters';
import { cachedJsonResponses } from './responses';

/** The paths of the exchange's own aggregator endpoints (its spec 2.8 and 4.4). */
export const LISTING: EndpointFamily = {
  tag: { name: 'listing', description: "The exchange's own aggregator endpoints" },
  schemas: LISTING_SCHEMAS,
  paths: {
    '/asset': {
      get: {
        operationId: 'listingAssets',
        tags: ['listing'],
        summary: 'Assets of the listed markets, keyed by upper-case symbol',
        description: 'Fields not known for an asset are left out; `name` is always there.',
        responses: cachedJsonResponses('assets by symbol', schemaRef('ListingAssets'), 'catalog'),
      },
    },
    '/summary': {
      get: {
        operationId: 'listingSummary',
        tags: ['listing'],
        summary:
          'Every listed market, keyed by upper-case BASE_QUOTE: last price, best prices, 24-hour figures',
        description:
          'Halted and paused markets stay listed with `isFrozen` "1"; hidden markets are left out.',
        responses: cachedJsonResponses('markets by BASE_QUOTE', schemaRef('ListingSummaries'), 'live'),
      },
    },
    '/ticker': {
      get: {
        operationId: 'listingTicker',
        tags: ['listing'],
        summary: 'Every listed market, keyed by lower-case base_quote: last price and 24-hour volumes',
        description:
          'Every listed market that `/summary` lists, under its lower-case key, with the asset names; hidden markets are left out, halted and paused ones carry `isFrozen` "1".',
        responses: cachedJsonResponses('markets by base_quote', schemaRef('ListingTickers'), 'live'),
      },
    },
    '/orderbook/{instrument}': {
      get: {
        operationId: 'listingOrderBook',
        tags: ['listing'],
        summary:
          "A market's book: bids descending, asks ascending, full depth unless `depth` or `level` says less",
        description:
          'Served from the live book the gateway holds; `timestamp` is its last change. An unknown or hidden market is a 404.',
        parameters: [instrumentPath('instrument', 'btc_usdt'), EVEN_DEPTH, LEVEL],
        responses: cachedJsonResponses('the book', schemaRef('ListingOrderBook'), 'live', {
          badRequest: true,
          notFound: true,
        }),
      },
    },
    '/trades/{instrument}': {
      get: {
        operationId: 'listingTrades',
        tags: ['listing'],
        summary: "A market's trades of the last 24 hours, newest first",
        description:
          'Every trade the gateway holds of the last 24 hours; without the trade feed (no gateway login) the answer is a 503.',
        parameters: [instrumentPath('instrument', 'btc_usdt')],
        responses: cachedJsonResponses('the trades', schemaRef('ListingTrades'), 'live', {
          badRequest: true,
          notFound: true,
          trades: true,
        }),
      },
    },
  },
};
