import type { SchemaObject } from '@nestjs/swagger';
import { EndpointFamily, schemaRef } from './endpoint-family';
import { EVEN_DEPTH, instrumentPath, LEVEL } from './parameters';
import { cachedJsonResponses } from './responses';
import {
  bookEntries,
  decimal,
  DIGITS,
  keyedBy,
  listingLastPrice,
  LOWER_PAIR,
  percentChange,
  TAKER_SIDE,
  text,
  unixMsText,
  UPPER_PAIR,
  UPPER_SYMBOL,
} from './schema-parts';

/** The exchange's own aggregator endpoints (its spec 2.8 and 4.4): every value a string unless stated. */

const IS_FROZEN: SchemaObject = {
  type: 'string',
  enum: ['0', '1'],
  description: '"1" when the market is Halted or Paused (orders are not accepted), else "0"',
  example: '0',
};

const ASSET: SchemaObject = {
  type: 'object',
  description: 'an asset of the listed markets; withdraw and deposit terms come from ASSETS_FILE',
  required: ['name'],
  additionalProperties: false,
  properties: {
    name: text('full name', 'Bitcoin'),
    can_withdraw: { type: 'boolean', description: 'withdrawals are enabled', example: true },
    can_deposit: { type: 'boolean', description: 'deposits are enabled', example: true },
    min_withdraw: decimal('smallest single withdrawal, in the asset', '0.0005'),
    max_withdraw: decimal('largest single withdrawal, in the asset; 0 for no limit', '0'),
  },
};

const SUMMARY: SchemaObject = {
  type: 'object',
  description: "a market's 24-hour figures (trades with now - 24h < time <= now) and best prices",
  required: [
    'id',
    'last',
    'lowestAsk',
    'highestBid',
    'percentChange',
    'baseVolume',
    'quoteVolume',
    'isFrozen',
    'high24hr',
    'low24hr',
  ],
  additionalProperties: false,
  properties: {
    id: text("the market's stable id: the exchange's instrument id when known", '1', DIGITS),
    last: listingLastPrice('64946.00'),
    lowestAsk: decimal('best ask of the live book at the price scale, 0 for an empty side', '64966.00'),
    highestBid: decimal('best bid of the live book at the price scale, 0 for an empty side', '64946.00'),
    percentChange: percentChange(
      '(last - open) / open x 100, in percent with two decimals, open being the first trade in 24 hours; "0.00" without trades',
      '-0.08',
    ),
    baseVolume: decimal('24-hour volume in the base asset at the amount scale', '357.27641833'),
    quoteVolume: decimal(
      '24-hour volume in the quote asset (sum of price x amount) at the price scale',
      '23217561.97',
    ),
    isFrozen: IS_FROZEN,
    high24hr: decimal('highest trade price in 24 hours at the price scale, 0 without trades', '65023.00'),
    low24hr: decimal('lowest trade price in 24 hours at the price scale, 0 without trades', '64941.00'),
  },
};

const TICKER: SchemaObject = {
  type: 'object',
  description: "a market's last price and 24-hour volumes",
  required: ['base_name', 'quote_name', 'last_price', 'base_volume', 'quote_volume', 'isFrozen'],
  additionalProperties: false,
  properties: {
    base_name: text('name of the base asset', 'Bitcoin'),
    quote_name: text('name of the quote asset', 'Tether'),
    last_price: listingLastPrice('64946.00'),
    base_volume: decimal('24-hour volume in the base asset at the amount scale', '357.27641833'),
    quote_volume: decimal('24-hour volume in the quote asset at the price scale', '23217561.97'),
    isFrozen: IS_FROZEN,
  },
};

const ORDER_BOOK: SchemaObject = {
  type: 'object',
  required: ['timestamp', 'bids', 'asks'],
  additionalProperties: false,
  properties: {
    timestamp: unixMsText("the book's last update", '1795688485807'),
    bids: bookEntries('descending'),
    asks: bookEntries('ascending'),
  },
  example: {
    timestamp: '1795688485807',
    bids: [['64946.00', '0.06666296']],
    asks: [['64966.00', '0.24337812']],
  },
};

const TRADE: SchemaObject = {
  type: 'object',
  required: ['tradeID', 'price', 'base_volume', 'quote_volume', 'trade_timestamp', 'type'],
  additionalProperties: false,
  properties: {
    tradeID: text("the exchange's trade id", '5013747', DIGITS),
    price: decimal('price at the price scale', '64946.00'),
    base_volume: decimal('amount in the base asset at the amount scale', '0.73702901'),
    quote_volume: decimal('price x amount in the quote asset at the price scale', '47867.09'),
    trade_timestamp: unixMsText('time of the trade', '1795688485565'),
    type: TAKER_SIDE,
  },
};

export const LISTING: EndpointFamily = {
  tag: { name: 'listing', description: "The exchange's own aggregator endpoints" },
  schemas: {
    ListingAsset: ASSET,
    ListingAssets: keyedBy('assets keyed by upper-case symbol', UPPER_SYMBOL, 'ListingAsset', {
      BTC: {
        name: 'Bitcoin',
        can_withdraw: true,
        can_deposit: true,
        min_withdraw: '0.0005',
        max_withdraw: '0',
      },
    }),
    ListingSummary: SUMMARY,
    ListingSummaries: keyedBy('listed markets keyed by upper-case BASE_QUOTE', UPPER_PAIR, 'ListingSummary', {
      BTC_USDT: {
        id: '1',
        last: '64946.00',
        lowestAsk: '64966.00',
        highestBid: '64946.00',
        percentChange: '-0.08',
        baseVolume: '357.27641833',
        quoteVolume: '23217561.97',
        isFrozen: '0',
        high24hr: '65023.00',
        low24hr: '64941.00',
      },
    }),
    ListingTicker: TICKER,
    ListingTickers: keyedBy('listed markets keyed by lower-case base_quote', LOWER_PAIR, 'ListingTicker', {
      btc_usdt: {
        base_name: 'Bitcoin',
        quote_name: 'Tether',
        last_price: '64946.00',
        base_volume: '357.27641833',
        quote_volume: '23217561.97',
        isFrozen: '0',
      },
    }),
    ListingOrderBook: ORDER_BOOK,
    ListingTrade: TRADE,
    ListingTrades: {
      type: 'array',
      description: 'every trade of the last 24 hours, newest first',
      items: schemaRef('ListingTrade'),
    },
  },
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
        responses: cachedJsonResponses('markets by base_quote', schemaRef('ListingTickers'), 'live'),
      },
    },
    '/orderbook/{instrument}': {
      get: {
        operationId: 'listingOrderBook',
        tags: ['listing'],
        summary:
          "A market's book: bids descending, asks ascending, full depth unless `depth` or `level` says less",
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
