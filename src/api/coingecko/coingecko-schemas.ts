import { Static, Type } from '@sinclair/typebox';
import {
  aggregatorLastPrice,
  bookEntries,
  decimal,
  TAKER_SIDE,
  text,
  tradeId,
  unixMs,
  UPPER_PAIR,
  UPPER_SYMBOL,
} from '../schema/wire-parts';

/** CoinGecko's spot formats: the quote asset is the `target`; decimals as strings, times and ids as JSON integers. */

export const CoingeckoPair = Type.Object(
  {
    ticker_id: text('the market as BASE_QUOTE', 'BTC_USDT', UPPER_PAIR),
    base: text('base asset symbol', 'BTC', UPPER_SYMBOL),
    target: text('quote (target) asset symbol', 'USDT', UPPER_SYMBOL),
  },
  { additionalProperties: false },
);

export const CoingeckoPairs = Type.Array(CoingeckoPair, { description: 'every listed market' });

export const CoingeckoTicker = Type.Object(
  {
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
  {
    description: "a market's 24-hour figures (trades with now - 24h < time <= now) and best prices",
    additionalProperties: false,
  },
);

export const CoingeckoTickers = Type.Array(CoingeckoTicker, { description: 'every listed market' });

export const CoingeckoOrderBook = Type.Object(
  {
    ticker_id: text('the market as BASE_QUOTE', 'BTC_USDT', UPPER_PAIR),
    timestamp: unixMs("the book's last update", 1795688486066),
    bids: bookEntries('descending'),
    asks: bookEntries('ascending'),
  },
  {
    additionalProperties: false,
    examples: [
      {
        ticker_id: 'BTC_USDT',
        timestamp: 1795688486066,
        bids: [['64946.00', '0.06666296']],
        asks: [['64966.00', '0.24337812']],
      },
    ],
  },
);

export const CoingeckoTrade = Type.Object(
  {
    trade_id: tradeId(5013738),
    price: decimal('price in the target asset at the price scale', '64966.00'),
    base_volume: decimal('amount in the base asset at the amount scale', '0.54489828'),
    target_volume: decimal('price x amount in the target asset at the price scale', '35399.86'),
    trade_timestamp: unixMs('time of the trade', 1795688483312),
    type: TAKER_SIDE,
  },
  { additionalProperties: false },
);

export const CoingeckoHistoricalTrades = Type.Object(
  { buy: Type.Array(CoingeckoTrade), sell: Type.Array(CoingeckoTrade) },
  {
    description:
      'the selected trades split by taker side, each list newest first; with `type` the other list is empty',
    additionalProperties: false,
  },
);

/** The family's schemas by their name in the documents. */
export const COINGECKO_SCHEMAS = {
  CoingeckoPair,
  CoingeckoPairs,
  CoingeckoTicker,
  CoingeckoTickers,
  CoingeckoOrderBook,
  CoingeckoTrade,
  CoingeckoHistoricalTrades,
};

export type CoingeckoPairRecord = Static<typeof CoingeckoPair>;
export type CoingeckoTickerRecord = Static<typeof CoingeckoTicker>;
export type CoingeckoOrderBookRecord = Static<typeof CoingeckoOrderBook>;
export type CoingeckoTradeRecord = Static<typeof CoingeckoTrade>;
export type CoingeckoHistoricalTradesRecord = Static<typeof CoingeckoHistoricalTrades>;
