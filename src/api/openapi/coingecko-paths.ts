import type { ParameterObject, SchemaObject } from '@nestjs/swagger';
import { EndpointFamily, schemaRef } from './endpoint-family';
import { EVEN_DEPTH, TICKER_ID } from './parameters';
import { cachedJsonResponses } from './responses';
import {
  bookEntries,
  decimal,
  aggregatorLastPrice,
  TAKER_SIDE,
  text,
  tradeId,
  unixMs,
  UPPER_PAIR,
  UPPER_SYMBOL,
} from './schema-parts';

/** CoinGecko's spot formats: the quote asset is the `target`; decimals as strings, times and ids as JSON integers. */

const PAIR: SchemaObject = {
  type: 'object',
  required: ['ticker_id', 'base', 'target'],
  additionalProperties: false,
  properties: {
    ticker_id: text('the market as BASE_QUOTE', 'BTC_USDT', UPPER_PAIR),
    base: text('base asset symbol', 'BTC', UPPER_SYMBOL),
    target: text('quote (target) asset symbol', 'USDT', UPPER_SYMBOL),
  },
};

const TICKER: SchemaObject = {
  type: 'object',
  description: "a market's 24-hour figures (trades with now - 24h < time <= now) and best prices",
  required: [
    'ticker_id',
    'base_currency',
    'target_currency',
    'last_price',
    'base_volume',
    'target_volume',
    'bid',
    'ask',
    'high',
    'low',
  ],
  additionalProperties: false,
  properties: {
    ticker_id: text('the market as BASE_QUOTE', 'BTC_USDT', UPPER_PAIR),
    base_currency: text('base asset symbol', 'BTC', UPPER_SYMBOL),
    target_currency: text('quote (target) asset symbol', 'USDT', UPPER_SYMBOL),
    last_price: aggregatorLastPrice('64946.00', 'the target asset'),
    base_volume: decimal('24-hour volume in the base asset at the amount scale', '357.27641833'),
    target_volume: decimal(
      '24-hour volume in the target asset (sum of price x amount) at the price scale',
      '23217561.97',
    ),
    bid: decimal('best bid of the live book at the price scale, 0 for an empty side', '64946.00'),
    ask: decimal('best ask of the live book at the price scale, 0 for an empty side', '64966.00'),
    high: decimal('highest trade price in 24 hours at the price scale, 0 without trades', '65023.00'),
    low: decimal('lowest trade price in 24 hours at the price scale, 0 without trades', '64941.00'),
  },
};

const ORDER_BOOK: SchemaObject = {
  type: 'object',
  required: ['ticker_id', 'timestamp', 'bids', 'asks'],
  additionalProperties: false,
  properties: {
    ticker_id: text('the market as BASE_QUOTE', 'BTC_USDT', UPPER_PAIR),
    timestamp: unixMs("the book's last update", 1795688486066),
    bids: bookEntries('descending'),
    asks: bookEntries('ascending'),
  },
  example: {
    ticker_id: 'BTC_USDT',
    timestamp: 1795688486066,
    bids: [['64946.00', '0.06666296']],
    asks: [['64966.00', '0.24337812']],
  },
};

const TRADE: SchemaObject = {
  type: 'object',
  required: ['trade_id', 'price', 'base_volume', 'target_volume', 'trade_timestamp', 'type'],
  additionalProperties: false,
  properties: {
    trade_id: tradeId(5013738),
    price: decimal('price in the target asset at the price scale', '64966.00'),
    base_volume: decimal('amount in the base asset at the amount scale', '0.54489828'),
    target_volume: decimal('price x amount in the target asset at the price scale', '35399.86'),
    trade_timestamp: unixMs('time of the trade', 1795688483312),
    type: TAKER_SIDE,
  },
};

const HISTORICAL_TRADES: SchemaObject = {
  type: 'object',
  description:
    'the selected trades split by taker side, each list newest first; with `type` the other list is empty',
  required: ['buy', 'sell'],
  additionalProperties: false,
  properties: {
    buy: { type: 'array', items: schemaRef('CoingeckoTrade') },
    sell: { type: 'array', items: schemaRef('CoingeckoTrade') },
  },
};

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
      example: 1795688400000,
    },
  };
}

export const COINGECKO: EndpointFamily = {
  tag: { name: 'coingecko', description: "CoinGecko's spot formats" },
  schemas: {
    CoingeckoPair: PAIR,
    CoingeckoPairs: { type: 'array', description: 'every listed market', items: schemaRef('CoingeckoPair') },
    CoingeckoTicker: TICKER,
    CoingeckoTickers: {
      type: 'array',
      description: 'every listed market',
      items: schemaRef('CoingeckoTicker'),
    },
    CoingeckoOrderBook: ORDER_BOOK,
    CoingeckoTrade: TRADE,
    CoingeckoHistoricalTrades: HISTORICAL_TRADES,
  },
  paths: {
    '/coingecko/pairs': {
      get: {
        operationId: 'coingeckoPairs',
        tags: ['coingecko'],
        summary: 'Every listed market: ticker_id, base and target',
        responses: cachedJsonResponses('every listed market', schemaRef('CoingeckoPairs'), 'catalog'),
      },
    },
    '/coingecko/tickers': {
      get: {
        operationId: 'coingeckoTickers',
        tags: ['coingecko'],
        summary: 'Every listed market: last price, 24-hour volumes, high and low, best bid and ask',
        responses: cachedJsonResponses('every listed market', schemaRef('CoingeckoTickers'), 'live'),
      },
    },
    '/coingecko/orderbook': {
      get: {
        operationId: 'coingeckoOrderBook',
        tags: ['coingecko'],
        summary: "A market's book: bids descending, asks ascending, full depth unless `depth` says less",
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
            schema: { type: 'integer', minimum: 0, maximum: 999999999, default: 0, example: 200 },
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
