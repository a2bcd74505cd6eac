import { LISTING_HEALTH_SCHEMAS } from '../listing-health/listing-health-schemas';
import { EndpointFamily, schemaRef } from './endpoint-family';
import { instrumentPath } from './parameters';
import { cachedJsonResponses } from './responses';

/** The paths of `/listing-health`: what CoinGecko and CoinMarketCap will judge each market by. */
export const LISTING_HEALTH: EndpointFamily = {
  tag: { name: 'listing-health', description: 'What aggregators will judge each market by, for operators' },
  schemas: LISTING_HEALTH_SCHEMAS,
  paths: {
    '/listing-health': {
      get: {
        operationId: 'listingHealth',
        tags: ['listing-health'],
        summary: "Every listed market's spread, ±2 % depth, dollar figures, ages and flags",
        description:
          'For operators: the figures CoinGecko and CoinMarketCap check before and after a listing, with a flag for each one out of bounds. Never cached.',
        responses: cachedJsonResponses('the report', schemaRef('ListingHealth'), 'none'),
      },
    },
    '/listing-health/{instrument}': {
      get: {
        operationId: 'listingHealthOfMarket',
        tags: ['listing-health'],
        summary: 'The same report for one market',
        description:
          'The report of `/listing-health` with only the named market under `markets`; an unknown or hidden market is a 404.',
        parameters: [instrumentPath('instrument', 'btc_usdt')],
        responses: cachedJsonResponses(
          'the report, one market in `markets`',
          schemaRef('ListingHealth'),
          'none',
          {
            badRequest: true,
            notFound: true,
          },
        ),
      },
    },
  },
};
