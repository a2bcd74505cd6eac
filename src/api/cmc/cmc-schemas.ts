import { Static, Type } from '@sinclair/typebox';
import {
  aggregatorLastPrice,
  bookEntries,
  decimal,
  keyedBy,
  percentChange,
  TAKER_SIDE,
  text,
  tradeId,
  unixMs,
  UPPER_PAIR,
  UPPER_SYMBOL,
} from '../schema/wire-parts';

/** CoinMarketCap's spot formats: decimals as strings, times and ids as JSON integers. */

const ucid = (description: string, example: number) =>
  Type.Integer({
    minimum: 1,
    description: `${description} (CoinMarketCap's Unified Cryptoasset ID)`,
    examples: [example],
  });

export const CmcSummary = Type.Object(
  {
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
  {
    description: "a market's 24-hour figures (trades with now - 24h < time <= now) and best prices",
    additionalProperties: false,
  },
);

export const CmcSummaries = Type.Array(CmcSummary, { description: 'every listed market' });

export const CmcAsset = Type.Object(
  {
    name: text('full name', 'Bitcoin'),
    unified_cryptoasset_id: Type.Optional(ucid('the asset', 1)),
    can_withdraw: Type.Optional(Type.Boolean({ description: 'withdrawals are enabled', examples: [true] })),
    can_deposit: Type.Optional(Type.Boolean({ description: 'deposits are enabled', examples: [true] })),
    min_withdraw: Type.Optional(decimal('smallest single withdrawal, in the asset', '0.0005')),
    max_withdraw: Type.Optional(decimal('largest single withdrawal, in the asset; 0 for no limit', '0')),
    maker_fee: Type.Optional(
      decimal('fee of an order that adds liquidity, as a fraction (0.001 is 0.1 %)', '0.001'),
    ),
    taker_fee: Type.Optional(
      decimal('fee of an order that takes liquidity, as a fraction (0.002 is 0.2 %)', '0.002'),
    ),
  },
  {
    description: 'an asset of the listed markets; withdraw and deposit terms come from ASSETS_FILE',
    additionalProperties: false,
  },
);

export const CmcAssets = keyedBy('assets keyed by upper-case symbol', UPPER_SYMBOL, CmcAsset, {
  BTC: { name: 'Bitcoin', can_withdraw: true, can_deposit: true, min_withdraw: '0.0005', max_withdraw: '0' },
});

export const CmcTicker = Type.Object(
  {
    base_id: Type.Optional(ucid('the base asset', 1)),
    quote_id: Type.Optional(ucid('the quote asset', 825)),
    last_price: aggregatorLastPrice('64946.00'),
    base_volume: decimal('24-hour volume in the base asset at the amount scale', '357.27641833'),
    quote_volume: decimal('24-hour volume in the quote asset at the price scale', '23217561.97'),
    isFrozen: Type.Union([Type.Literal(0), Type.Literal(1)], {
      description: '1 when the market is Halted or Paused (orders are not accepted), else 0',
      examples: [0],
    }),
  },
  { description: "a market's last price and 24-hour volumes", additionalProperties: false },
);

export const CmcTickers = keyedBy('listed markets keyed by upper-case BASE_QUOTE', UPPER_PAIR, CmcTicker, {
  BTC_USDT: { last_price: '64946.00', base_volume: '357.27641833', quote_volume: '23217561.97', isFrozen: 0 },
});

export const CmcOrderBook = Type.Object(
  {
    timestamp: unixMs("the book's last update", 1795688485807),
    bids: bookEntries('descending'),
    asks: bookEntries('ascending'),
  },
  {
    additionalProperties: false,
    examples: [
      { timestamp: 1795688485807, bids: [['64946.00', '0.06666296']], asks: [['64966.00', '0.24337812']] },
    ],
  },
);

export const CmcTrade = Type.Object(
  {
    trade_id: tradeId(5013742),
    price: decimal('price at the price scale', '64946.00'),
    base_volume: decimal('amount in the base asset at the amount scale', '0.73702901'),
    quote_volume: decimal('price x amount in the quote asset at the price scale', '47867.09'),
    timestamp: unixMs('time of the trade', 1795688485565),
    type: TAKER_SIDE,
  },
  { additionalProperties: false },
);

export const CmcTrades = Type.Array(CmcTrade, {
  description: 'every trade of the last 24 hours, newest first',
});

/** The family's schemas by their name in the documents. */
export const CMC_SCHEMAS = {
  CmcSummary,
  CmcSummaries,
  CmcAsset,
  CmcAssets,
  CmcTicker,
  CmcTickers,
  CmcOrderBook,
  CmcTrade,
  CmcTrades,
};

export type CmcSummaryRecord = Static<typeof CmcSummary>;
export type CmcAssetRecord = Static<typeof CmcAsset>;
export type CmcTickerRecord = Static<typeof CmcTicker>;
export type CmcOrderBookRecord = Static<typeof CmcOrderBook>;
export type CmcTradeRecord = Static<typeof CmcTrade>;
