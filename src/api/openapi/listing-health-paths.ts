import type { SchemaObject } from '@nestjs/swagger';
import { LISTING_FLAG_CODES } from '../../market/listing-health/listing-flag';
import { EndpointFamily, schemaRef } from './endpoint-family';
import { instrumentPath } from './parameters';
import { cachedJsonResponses } from './responses';
import { decimal, keyedBy, LOWER_PAIR, PERCENT, text, UPPER_PAIR, UPPER_SYMBOL } from './schema-parts';

/** `/listing-health`: what CoinGecko and CoinMarketCap will judge each market by. */

const nullable = (schema: SchemaObject): SchemaObject => ({ ...schema, nullable: true });
const milliseconds = (description: string, example: number): SchemaObject => ({
  type: 'integer',
  minimum: 0,
  description,
  example,
});
const dollars = (description: string, example: string): SchemaObject =>
  nullable({ type: 'string', pattern: '^(0|[1-9][0-9]*)\\.[0-9]{2}$', description, example });

const FLAG: SchemaObject = {
  type: 'object',
  required: ['code', 'message'],
  additionalProperties: false,
  properties: {
    code: { type: 'string', enum: [...LISTING_FLAG_CODES], example: 'thin_depth' },
    message: text('what is wrong, with the figures', 'the -2 % depth is 512.20 USD, under 1000 USD'),
  },
};

const pair = (quoteName: string): SchemaObject => ({
  type: 'object',
  additionalProperties: false,
  properties: {
    [quoteName === 'target' ? 'ticker_id' : 'trading_pairs']: text('the pair', 'BTC_USDT', UPPER_PAIR),
    base_currency: text('the base asset', 'BTC', UPPER_SYMBOL),
    [`${quoteName}_currency`]: text('the quote asset', 'USDT', UPPER_SYMBOL),
  },
});

const MARKET: SchemaObject = {
  type: 'object',
  description:
    "one market's figures: prices and quote amounts at the price scale, base amounts at the amount scale, dollars and percentages at two decimals, rounded half away from zero; null where an empty side leaves a figure undefined",
  additionalProperties: false,
  required: [
    'instrument',
    'base',
    'quote',
    'orientation',
    'status',
    'sync_state',
    'book_version',
    'best_bid',
    'best_ask',
    'mid',
    'spread_percentage',
    'depth_plus_2_percent_quote',
    'depth_minus_2_percent_quote',
    'depth_plus_2_percent_base',
    'depth_minus_2_percent_base',
    'usd',
    'last_trade_age_ms',
    'trades_24h',
    'base_volume_24h',
    'quote_volume_24h',
    'book_age_ms',
    'flags',
  ],
  properties: {
    instrument: text('the instrument', 'btc_usdt', LOWER_PAIR),
    base: text('the base asset', 'BTC', UPPER_SYMBOL),
    quote: text('the quote asset', 'USDT', UPPER_SYMBOL),
    orientation: {
      type: 'object',
      description: 'how each listing format names the pair and which side is the base',
      additionalProperties: false,
      properties: {
        summary_key: text('its key in /summary', 'BTC_USDT', UPPER_PAIR),
        ticker_key: text('its key in /ticker', 'btc_usdt', LOWER_PAIR),
        cmc: pair('quote'),
        coingecko: pair('target'),
      },
    },
    status: text("the exchange's market status (Halted and Paused are frozen)", 'Open'),
    sync_state: nullable({
      type: 'string',
      enum: ['syncing', 'live', 'resync'],
      description: "the book's state",
    }),
    book_version: nullable({
      type: 'integer',
      description:
        'the version of the book the ±2 % depths come from (the best prices and spread are current)',
      example: 120345,
    }),
    best_bid: nullable(decimal('best bid', '64946.00')),
    best_ask: nullable(decimal('best ask', '64966.00')),
    mid: nullable(
      decimal(
        '(best bid + best ask) / 2, exact: one decimal more than the price scale when needed',
        '64956.00',
      ),
    ),
    spread_percentage: nullable({
      type: 'string',
      pattern: PERCENT,
      description: '(best ask - best bid) / mid x 100, negative for a crossed book',
      example: '0.03',
    }),
    depth_plus_2_percent_quote: nullable(
      decimal('Σ price x amount of the asks priced at most mid x 1.02', '812345.12'),
    ),
    depth_minus_2_percent_quote: nullable(
      decimal('Σ price x amount of the bids priced at least mid x 0.98', '790000.55'),
    ),
    depth_plus_2_percent_base: nullable(decimal('Σ amount of those asks', '12.50000000')),
    depth_minus_2_percent_base: nullable(decimal('Σ amount of those bids', '12.20000000')),
    usd: {
      type: 'object',
      description:
        "in US dollars through the exchange's own markets (USD_REFERENCE_ASSETS count as one dollar); null with `reason` when no market prices the quote asset",
      additionalProperties: false,
      required: [
        'quote_price_path',
        'depth_plus_2_percent',
        'depth_minus_2_percent',
        'quote_volume_24h',
        'reason',
      ],
      properties: {
        quote_price_path: nullable({
          type: 'array',
          items: { type: 'string', pattern: LOWER_PAIR },
          description: 'the markets whose mids price the quote asset, in order; empty for a reference asset',
          example: ['eth_btc', 'btc_usdt'],
        }),
        depth_plus_2_percent: dollars('the +2 % depth', '812345.12'),
        depth_minus_2_percent: dollars('the -2 % depth', '790000.55'),
        quote_volume_24h: dollars('the 24-hour quote volume', '23217561.97'),
        reason: nullable(
          text(
            'why there is no dollar figure',
            'no listed market prices EUR in USD, USDT, USDC, directly or through one other asset',
          ),
        ),
      },
    },
    last_trade_age_ms: nullable(milliseconds('since the newest trade known', 1_200)),
    trades_24h: milliseconds('trades in the 24-hour window', 5_400),
    base_volume_24h: decimal('as /summary baseVolume', '357.27641833'),
    quote_volume_24h: decimal('as /summary quoteVolume', '23217561.97'),
    book_age_ms: nullable(milliseconds('since the book was last known current', 180)),
    flags: { type: 'array', items: schemaRef('ListingHealthFlag') },
  },
};

const REPORT: SchemaObject = {
  type: 'object',
  required: ['generated_at', 'books_read_at', 'thresholds', 'markets'],
  additionalProperties: false,
  properties: {
    generated_at: milliseconds('Unix milliseconds the ages are counted to', 1_795_000_000_000),
    books_read_at: milliseconds(
      'Unix milliseconds the books behind the ±2 % depths were read',
      1_794_999_995_000,
    ),
    thresholds: {
      type: 'object',
      description: 'the settings the flags are judged by',
      additionalProperties: false,
      properties: {
        usd_reference_assets: { type: 'array', items: { type: 'string', pattern: UPPER_SYMBOL } },
        max_spread_percent: decimal('LISTING_MAX_SPREAD_PERCENT', '2'),
        min_depth_usd: decimal('LISTING_MIN_DEPTH_USD', '1000'),
        stale_trades_ms: milliseconds('LISTING_STALE_TRADES_MS', 3_600_000),
        stale_book_ms: milliseconds('LISTING_STALE_BOOK_MS', 60_000),
        volume_depth_ratio: decimal('LISTING_VOLUME_DEPTH_RATIO', '100'),
      },
    },
    markets: keyedBy('each listed market, keyed as /summary keys it', UPPER_PAIR, 'ListingHealthMarket', {}),
  },
};

export const LISTING_HEALTH: EndpointFamily = {
  tag: { name: 'listing-health', description: 'What aggregators will judge each market by, for operators' },
  schemas: { ListingHealthFlag: FLAG, ListingHealthMarket: MARKET, ListingHealth: REPORT },
  paths: {
    '/listing-health': {
      get: {
        operationId: 'listingHealth',
        tags: ['listing-health'],
        summary: "Every listed market's spread, ±2 % depth, dollar figures, ages and flags",
        responses: cachedJsonResponses('the report', schemaRef('ListingHealth'), 'none'),
      },
    },
    '/listing-health/{instrument}': {
      get: {
        operationId: 'listingHealthOfMarket',
        tags: ['listing-health'],
        summary: 'The same report for one market',
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
