import type { SchemaObject } from '@nestjs/swagger';
import { CANDLE_INTERVALS, MAX_CANDLES } from '../../market/candle-interval';
import { EndpointFamily, schemaRef } from './endpoint-family';
import { instrumentPath } from './parameters';
import { cachedJsonResponses } from './responses';
import { LOWER_PAIR, text } from './schema-parts';

/**
 * The mirror of the exchange's public REST (its spec 2.1-2.3, 4.1): the exchange's shapes, with
 * decimals as bare JSON numbers written with their exact digits, as the exchange writes them.
 */

/** A decimal the exchange writes as a JSON number; its digits may exceed a binary double's. */
function exactNumber(description: string, example: number): SchemaObject {
  return {
    type: 'number',
    minimum: 0,
    description: `${description}; a JSON number with every digit, to be parsed without binary floating point`,
    example,
  };
}

const EXCHANGE_TIME = '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?Z?$';
const UTC_TIME = '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?Z$';

const MARKET: SchemaObject = {
  type: 'object',
  description:
    "a market as the exchange sent it (the five fields of the exchange's 0.1.3 sample only when it sends them)",
  required: [
    'baseAsset',
    'quoteAsset',
    'minAmount',
    'priceDeviation',
    'hidden',
    'makerFee',
    'takerFee',
    'priceScale',
    'amountScale',
    'createdAt',
    'updatedAt',
    'status',
    'side',
    'isCustom',
  ],
  additionalProperties: false,
  properties: {
    baseAsset: text('base asset, lower case', 'btc'),
    quoteAsset: text('quote asset, lower case', 'usdt'),
    minAmount: exactNumber('smallest order amount, in the base asset', 0.0001),
    priceDeviation: exactNumber(
      'largest deviation of a limit price from the best price, 0 to 1 (0.15 is 15 %)',
      0.15,
    ),
    hidden: {
      type: 'integer',
      enum: [0, 1],
      description: '1: hidden, not listed by the aggregator endpoints; 0: available',
      example: 0,
    },
    makerFee: exactNumber('fee of an order that adds liquidity, 0 to 1', 0.001),
    takerFee: exactNumber('fee of an order that takes liquidity, 0 to 1', 0.002),
    makerFeeLimit: exactNumber('in the 0.1.3 sample; meaning not documented by the exchange', 0),
    takerFeeLimit: exactNumber('in the 0.1.3 sample; meaning not documented by the exchange', 0),
    minPrice: exactNumber('in the 0.1.3 sample; meaning not documented by the exchange', 0),
    maxPrice: exactNumber('in the 0.1.3 sample; meaning not documented by the exchange', 0),
    fee: exactNumber('in the 0.1.3 sample; meaning not documented by the exchange', 0),
    priceScale: {
      type: 'integer',
      minimum: 2,
      maximum: 18,
      description: 'decimal places of prices',
      example: 2,
    },
    amountScale: {
      type: 'integer',
      minimum: 2,
      maximum: 18,
      description: 'decimal places of amounts',
      example: 8,
    },
    createdAt: text(
      'creation time, UTC, YYYY-MM-DDThh:mm:ss with optional fraction',
      '2024-03-14T09:26:53.589793',
      EXCHANGE_TIME,
    ),
    updatedAt: text('last update, UTC, same format', '2024-03-14T09:26:53.589793', EXCHANGE_TIME),
    status: {
      description:
        'Open: orders accepted; Halted: new orders not accepted; Paused: placement rejected, placed limit orders ' +
        'still wait; one exchange sample has the number 0',
      anyOf: [
        { type: 'string', enum: ['Open', 'Halted', 'Paused'] },
        { type: 'integer', enum: [0] },
      ],
      example: 'Open',
    },
    side: {
      type: 'string',
      enum: ['BuySell', 'Buy', 'Sell'],
      description: 'sides that may be traded',
      example: 'BuySell',
    },
    isCustom: {
      type: 'boolean',
      description: "true: a market configured on the exchange's side; false: a liquidity provider's market",
      example: false,
    },
  },
};

const EXCHANGE_INFO: SchemaObject = {
  type: 'object',
  required: ['serverTime', 'pairs'],
  additionalProperties: false,
  properties: {
    serverTime: {
      type: 'integer',
      format: 'int64',
      minimum: 0,
      description:
        'time of the answer in .NET ticks (100 ns since 0001-01-01T00:00:00Z): 18 digits, beyond a double',
      example: 639312852894980000,
    },
    pairs: {
      type: 'object',
      description: 'every market of the exchange, hidden ones included, keyed by lower-case base_quote',
      additionalProperties: schemaRef('MirrorMarket'),
    },
  },
};

const DEPTH_ENTRY: SchemaObject = {
  type: 'object',
  required: ['amount', 'price'],
  additionalProperties: false,
  properties: {
    amount: exactNumber('amount at the level, in the base asset', 0.75068501),
    price: exactNumber('price of the level', 62077),
  },
};

const DEPTH: SchemaObject = {
  type: 'object',
  required: ['instrument', 'bids', 'asks', 'version', 'askTotalAmount', 'bidTotalAmount', 'snapshot'],
  additionalProperties: false,
  properties: {
    instrument: text('the market, lower-case base_quote', 'btc_usdt', LOWER_PAIR),
    bids: {
      type: 'array',
      description: 'every bid level, ascending by price as the exchange sends them (the best bid last)',
      items: schemaRef('MirrorDepthEntry'),
    },
    asks: {
      type: 'array',
      description: 'every ask level, ascending by price',
      items: schemaRef('MirrorDepthEntry'),
    },
    version: {
      type: 'integer',
      format: 'int64',
      minimum: 0,
      description: "the book's version",
      example: 111123,
    },
    askTotalAmount: exactNumber('exact sum of the ask amounts', 650.36995702),
    bidTotalAmount: exactNumber('exact sum of the bid amounts', 616.13215275),
    snapshot: { type: 'boolean', enum: [true], description: 'always true for this snapshot' },
  },
};

const CANDLE: SchemaObject = {
  type: 'object',
  required: ['instrument', 'start', 'end', 'low', 'high', 'volume', 'quoteVolume', 'open', 'close'],
  additionalProperties: false,
  properties: {
    instrument: text('the market, lower-case base_quote', 'btc_usdt', LOWER_PAIR),
    start: text("the candle's start, UTC with Z, inclusive", '2026-11-26T09:00:00Z', UTC_TIME),
    end: text("the candle's end, UTC with Z, exclusive", '2026-11-26T10:00:00Z', UTC_TIME),
    low: exactNumber('lowest trade price', 64941),
    high: exactNumber('highest trade price', 65023),
    volume: exactNumber('traded amount in the base asset', 12.5),
    quoteVolume: exactNumber(
      "traded amount in the quote asset, the exact sum of price x amount (the gateway's addition)",
      812345.6,
    ),
    open: exactNumber('first trade price', 64950),
    close: exactNumber('last trade price', 64946),
  },
};

const HISTORY: SchemaObject = {
  type: 'object',
  required: ['success', 'instrument', 'data', 'startDateTime', 'endDateTime'],
  additionalProperties: false,
  properties: {
    success: { type: 'boolean', enum: [true], description: 'always true in a 200' },
    instrument: text('the market, lower-case base_quote', 'btc_usdt', LOWER_PAIR),
    data: {
      type: 'array',
      description: `candles with trades in the range, oldest first, at most \`count\` (the newest)`,
      items: schemaRef('MirrorCandle'),
    },
    startDateTime: text('the start of the range, UTC with Z', '2026-11-25T00:00:00Z', UTC_TIME),
    endDateTime: text('the end of the range, UTC with Z', '2026-11-27T00:00:00Z', UTC_TIME),
  },
};

const instrument = instrumentPath('instrument', 'btc_usdt');

function dateQuery(name: string, description: string) {
  return {
    name,
    in: 'query' as const,
    required: true,
    description: `${description}, UTC, YYYY-MM-DDThh:mm:ss with an optional fraction and Z`,
    schema: { type: 'string', pattern: EXCHANGE_TIME, example: '2026-11-26T00:00:00' },
  };
}

export const MIRROR: EndpointFamily = {
  tag: { name: 'mirror', description: "The exchange's public REST, served from the gateway's state" },
  schemas: {
    MirrorMarket: MARKET,
    MirrorExchangeInfo: EXCHANGE_INFO,
    MirrorDepthEntry: DEPTH_ENTRY,
    MirrorDepth: DEPTH,
    MirrorCandle: CANDLE,
    MirrorHistory: HISTORY,
  },
  paths: {
    '/frontoffice/api/info': {
      get: {
        operationId: 'mirrorInfo',
        tags: ['mirror'],
        summary: 'Every market of the exchange, hidden ones included; serverTime in .NET ticks',
        responses: cachedJsonResponses('the markets', schemaRef('MirrorExchangeInfo'), 'live'),
      },
    },
    '/marketdata/instruments/{instrument}/depth': {
      get: {
        operationId: 'mirrorDepth',
        tags: ['mirror'],
        summary: "A listed market's full book, both sides ascending, with its version and totals",
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
