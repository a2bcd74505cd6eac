import type { ParameterObject } from '@nestjs/swagger';
import { COINGECKO_SCHEMAS } from '../coingecko/coingecko-schemas';
import { EndpointFamily, schemaRef } from './endpoint-family';
import { EVEN_DEPTH, TICKER_ID } from './parameters';
import { cachedJsonResponses } from './responses';

/** The paths of CoinGecko's spot formats. */

const TIME_RULE =
  'inclusive bound, Unix milliseconds, or Unix seconds for a value below 100000000000 (a bound in seconds covers its whole second)';

function timeBound(name: string, description: string): ParameterObject {
  return {
    name,
    in: 'query',
    required: false,
    description: `${description}: ${TIME_RULE}; start_time after end_time is a 400`,
    schema: {
      type: 'integer',
      format: 'int64',
      minimum: 0,
      maximum: 9999999999999999,
      examples: [1795688400000],
    },
  };
}
export const COINGECKO: EndpointFamily = {
  tag: { name: 'coingecko', description: "CoinGecko's spot formats" },
  schemas: COINGECKO_SCHEMAS,
  paths: {
    '/coingecko/pairs': {
      get: {
        operationId: 'coingeckoPairs',
        tags: ['coingecko'],
        summary: 'Every listed market: ticker_id, base and target',
        description: 'An array with one entry per listed market; hidden markets are left out.',
        responses: cachedJsonResponses('every listed market', schemaRef('CoingeckoPairs'), 'catalog'),
      },
    },
    '/coingecko/tickers': {
      get: {
        operationId: 'coingeckoTickers',
        tags: ['coingecko'],
        summary: 'Every listed market: last price, 24-hour volumes, high and low, best bid and ask',
        description:
          'An array with one record per listed market; a market without a known trade is left out, as CoinGecko requires a last price.',
        responses: cachedJsonResponses('every listed market', schemaRef('CoingeckoTickers'), 'live'),
      },
    },
    '/coingecko/orderbook': {
      get: {
        operationId: 'coingeckoOrderBook',
        tags: ['coingecko'],
        summary: "A market's book: bids descending, asks ascending, full depth unless `depth` says less",
        description:
          'The market is named by `ticker_id`; served from the live book the gateway holds. An unknown or hidden market is a 404.',
        parameters: [TICKER_ID, EVEN_DEPTH],
        responses: cachedJsonResponses('the book', schemaRef('CoingeckoOrderBook'), 'live', {
          badRequest: true,
          notFound: true,
        }),
      },
    },
    '/coingecko/historical_trades': {
      get: {
        operationId: 'coingeckoHistoricalTrades',
        tags: ['coingecko'],
        summary: "A market's trades of the last 24 hours, newest first, split by taker side",
        description:
          'Trades the gateway holds of the last 24 hours, narrowed by `type`, `start_time`, `end_time` and `limit`; without the trade feed the answer is a 503.',
        parameters: [
          TICKER_ID,
          {
            name: 'type',
            in: 'query',
            required: false,
            description: 'only trades of this taker side, in any letter case; both when absent',
            schema: { type: 'string', enum: ['buy', 'sell'] },
          },
          {
            name: 'limit',
            in: 'query',
            required: false,
            description: 'the newest N trades that match, both sides together; 0 or absent: all of them',
            schema: { type: 'integer', minimum: 0, maximum: 999999999, default: 0, examples: [200] },
          },
          timeBound('start_time', 'the oldest trade time'),
          timeBound('end_time', 'the newest trade time'),
        ],
        responses: cachedJsonResponses('the trades', schemaRef('CoingeckoHistoricalTrades'), 'live', {
          badRequest: true,
          notFound: true,
          trades: true,
        }),
      },
    },
  },
};
