import { CANDLE_INTERVALS, MAX_CANDLES } from '../../market/candle-interval';
import { EXCHANGE_TIME, MIRROR_SCHEMAS } from '../mirror/mirror-schemas';
import { EndpointFamily, schemaRef } from './endpoint-family';
import { instrumentPath } from './parameters';
import { cachedJsonResponses } from './responses';

/** The paths of the mirror of the exchange's public REST (its spec 2.1-2.3, 4.1). */

const instrument = instrumentPath('instrument', 'btc_usdt');

function dateQuery(name: string, description: string) {
  return {
    name,
    in: 'query' as const,
    required: true,
    description: `${description}, UTC, YYYY-MM-DDThh:mm:ss with an optional fraction and Z`,
    schema: { type: 'string', pattern: EXCHANGE_TIME, examples: ['2026-11-26T00:00:00'] },
  };
}
export const MIRROR: EndpointFamily = {
  tag: { name: 'mirror', description: "The exchange's public REST, served from the gateway's state" },
  schemas: MIRROR_SCHEMAS,
  paths: {
    '/frontoffice/api/info': {
      get: {
        operationId: 'mirrorInfo',
        tags: ['mirror'],
        summary: 'Every market of the exchange, hidden ones included; serverTime in .NET ticks',
        description:
          "The exchange's market list as the exchange sent it, each market keyed by lower-case base_quote; this is the one list that keeps hidden markets.",
        responses: cachedJsonResponses('the markets', schemaRef('MirrorExchangeInfo'), 'live'),
      },
    },
    '/marketdata/instruments/{instrument}/depth': {
      get: {
        operationId: 'mirrorDepth',
        tags: ['mirror'],
        summary: "A listed market's full book, both sides ascending, with its version and totals",
        description:
          "The exchange's own depth shape, served from the live book the gateway holds; an unknown or hidden market is a 404.",
        parameters: [instrument],
        responses: cachedJsonResponses('the book', schemaRef('MirrorDepth'), 'live', {
          badRequest: true,
          notFound: true,
        }),
      },
    },
    '/marketdata/instruments/{instrument}/history': {
      get: {
        operationId: 'mirrorHistory',
        tags: ['mirror'],
        summary:
          'Candles of the trades the gateway holds (the last 24 hours) in [startDate, endDate); older parts of ' +
          'the range have no candles',
        description:
          "The exchange's own candle shape, computed from the trades the gateway holds; without the trade feed the answer is a 503.",
        parameters: [
          instrument,
          dateQuery('startDate', 'start of the range, inclusive'),
          dateQuery('endDate', 'end of the range, exclusive; must be after startDate'),
          {
            name: 'type',
            in: 'query',
            required: true,
            description: 'candle interval (1M: a calendar month)',
            schema: { type: 'string', enum: [...CANDLE_INTERVALS] },
          },
          {
            name: 'count',
            in: 'query',
            required: false,
            description: `the newest N candles, 1 to ${MAX_CANDLES}`,
            schema: { type: 'integer', minimum: 1, maximum: MAX_CANDLES, default: MAX_CANDLES },
          },
        ],
        responses: cachedJsonResponses('the candles', schemaRef('MirrorHistory'), 'live', {
          badRequest: true,
          notFound: true,
          trades: true,
        }),
      },
    },
  },
};
