import type { SchemaObject } from '@nestjs/swagger';
import { EndpointFamily, schemaRef } from './endpoint-family';
import { CMC_DEPTH, CMC_LEVEL, instrumentPath } from './parameters';
import { cachedJsonResponses } from './responses';
import {
  bookEntries,
  decimal,
  keyedBy,
  aggregatorLastPrice,
  percentChange,
  TAKER_SIDE,
  text,
  tradeId,
  unixMs,
  UPPER_PAIR,
  UPPER_SYMBOL,
} from './schema-parts';

/** CoinMarketCap's spot formats: decimals as strings, times and ids as JSON integers. */

const UCID = (description: string, example: number): SchemaObject => ({
  type: 'integer',
  minimum: 1,
  description: `${description} (CoinMarketCap's Unified Cryptoasset ID)`,
  example,
});

const SUMMARY: SchemaObject = {
  type: 'object',
  description: "a market's 24-hour figures (trades with now - 24h < time <= now) and best prices",
  required: [
    'trading_pairs',
    'base_currency',
    'quote_currency',
    'last_price',
    'lowest_ask',
    'highest_bid',
    'base_volume',
    'quote_volume',
    'price_change_percent_24h',
    'highest_price_24h',
    'lowest_price_24h',
  ],
  additionalProperties: false,
  properties: {
    trading_pairs: text('the market as BASE_QUOTE', 'BTC_USDT', UPPER_PAIR),
    base_currency: text('base asset symbol', 'BTC', UPPER_SYMBOL),
    quote_currency: text('quote asset symbol', 'USDT', UPPER_SYMBOL),
    last_price: aggregatorLastPrice('64946.00'),
    lowest_ask: decimal('best ask of the live book at the price scale, 0 for an empty side', '64966.00'),
    highest_bid: decimal('best bid of the live book at the price scale, 0 for an empty side', '64946.00'),
    base_volume: decimal('24-hour volume in the base asset at the amount scale', '357.27641833'),
    quote_volume: decimal(
      '24-hour volume in the quote asset (sum of price x amount) at the price scale',
      '23217561.97',
    ),
    price_change_percent_24h: percentChange(
      '24-hour change in percent with two decimals, "0.00" without trades',
      '-0.08',
    ),
    highest_price_24h: decimal(
      'highest trade price in 24 hours at the price scale, 0 without trades',
      '65023.00',
    ),
    lowest_price_24h: decimal(
      'lowest trade price in 24 hours at the price scale, 0 without trades',
      '64941.00',
    ),
  },
};

const ASSET: SchemaObject = {
  type: 'object',
  description: 'an asset of the listed markets; withdraw and deposit terms come from ASSETS_FILE',
  required: ['name'],
  additionalProperties: false,
  properties: {
    name: text('full name', 'Bitcoin'),
    unified_cryptoasset_id: UCID('the asset', 1),
    can_withdraw: { type: 'boolean', description: 'withdrawals are enabled', example: true },
    can_deposit: { type: 'boolean', description: 'deposits are enabled', example: true },
    min_withdraw: decimal('smallest single withdrawal, in the asset', '0.0005'),
    max_withdraw: decimal('largest single withdrawal, in the asset; 0 for no limit', '0'),
    maker_fee: decimal('fee of an order that adds liquidity, as a fraction (0.001 is 0.1 %)', '0.001'),
    taker_fee: decimal('fee of an order that takes liquidity, as a fraction (0.002 is 0.2 %)', '0.002'),
  },
};

const TICKER: SchemaObject = {
  type: 'object',
  description: "a market's last price and 24-hour volumes",
  required: ['last_price', 'base_volume', 'quote_volume', 'isFrozen'],
  additionalProperties: false,
  properties: {
    base_id: UCID('the base asset', 1),
    quote_id: UCID('the quote asset', 825),
    last_price: aggregatorLastPrice('64946.00'),
    base_volume: decimal('24-hour volume in the base asset at the amount scale', '357.27641833'),
    quote_volume: decimal('24-hour volume in the quote asset at the price scale', '23217561.97'),
    isFrozen: {
      type: 'integer',
      enum: [0, 1],
      description: '1 when the market is Halted or Paused (orders are not accepted), else 0',
      example: 0,
    },
  },
};

const ORDER_BOOK: SchemaObject = {
  type: 'object',
  required: ['timestamp', 'bids', 'asks'],
  additionalProperties: false,
  properties: {
    timestamp: unixMs("the book's last update", 1795688485807),
    bids: bookEntries('descending'),
    asks: bookEntries('ascending'),
  },
  example: {
    timestamp: 1795688485807,
    bids: [['64946.00', '0.06666296']],
    asks: [['64966.00', '0.24337812']],
  },
};

const TRADE: SchemaObject = {
  type: 'object',
  required: ['trade_id', 'price', 'base_volume', 'quote_volume', 'timestamp', 'type'],
  additionalProperties: false,
  properties: {
    trade_id: tradeId(5013742),
    price: decimal('price at the price scale', '64946.00'),
    base_volume: decimal('amount in the base asset at the amount scale', '0.73702901'),
    quote_volume: decimal('price x amount in the quote asset at the price scale', '47867.09'),
    timestamp: unixMs('time of the trade', 1795688485565),
    type: TAKER_SIDE,
  },
};

const pair = instrumentPath('pair', 'BTC_USDT');

export const CMC: EndpointFamily = {
  tag: { name: 'coinmarketcap', description: "CoinMarketCap's spot formats" },
  schemas: {
    CmcSummary: SUMMARY,
    CmcSummaries: { type: 'array', description: 'every listed market', items: schemaRef('CmcSummary') },
    CmcAsset: ASSET,
    CmcAssets: keyedBy('assets keyed by upper-case symbol', UPPER_SYMBOL, 'CmcAsset', {
      BTC: {
        name: 'Bitcoin',
        can_withdraw: true,
        can_deposit: true,
        min_withdraw: '0.0005',
        max_withdraw: '0',
      },
    }),
    CmcTicker: TICKER,
    CmcTickers: keyedBy('listed markets keyed by upper-case BASE_QUOTE', UPPER_PAIR, 'CmcTicker', {
      BTC_USDT: {
        last_price: '64946.00',
        base_volume: '357.27641833',
        quote_volume: '23217561.97',
        isFrozen: 0,
      },
    }),
    CmcOrderBook: ORDER_BOOK,
    CmcTrade: TRADE,
    CmcTrades: {
      type: 'array',
      description: 'every trade of the last 24 hours, newest first',
      items: schemaRef('CmcTrade'),
    },
  },
  paths: {
    '/cmc/summary': {
      get: {
        operationId: 'cmcSummary',
        tags: ['coinmarketcap'],
        summary:
          'Every listed market: last price, best prices, 24-hour volumes, change in percent, high and low',
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
        responses: cachedJsonResponses('markets by BASE_QUOTE', schemaRef('CmcTickers'), 'live'),
      },
    },
    '/cmc/orderbook/{pair}': {
      get: {
        operationId: 'cmcOrderBook',
        tags: ['coinmarketcap'],
        summary:
          "A market's book: bids descending, asks ascending, full depth unless `depth` or `level` says less",
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
