import { Static, Type } from '@sinclair/typebox';
import {
  bookEntries,
  decimal,
  DIGITS,
  keyedBy,
  listingLastPrice,
  LOWER_PAIR,
  oneOfTexts,
  percentChange,
  TAKER_SIDE,
  text,
  unixMsText,
  UPPER_PAIR,
  UPPER_SYMBOL,
} from '../schema/wire-parts';

/** The exchange's own aggregator records (its spec 2.8 and 4.4): every value a string unless stated. */

const IS_FROZEN = oneOfTexts(['0', '1'], {
  description: '"1" when the market is Halted or Paused (orders are not accepted), else "0"',
  examples: ['0'],
});

export const ListingAsset = Type.Object(
  {
    name: text('full name', 'Bitcoin'),
    can_withdraw: Type.Optional(Type.Boolean({ description: 'withdrawals are enabled', examples: [true] })),
    can_deposit: Type.Optional(Type.Boolean({ description: 'deposits are enabled', examples: [true] })),
    min_withdraw: Type.Optional(decimal('smallest single withdrawal, in the asset', '0.0005')),
    max_withdraw: Type.Optional(decimal('largest single withdrawal, in the asset; 0 for no limit', '0')),
  },
  {
    description: 'an asset of the listed markets; withdraw and deposit terms come from ASSETS_FILE',
    additionalProperties: false,
  },
);

export const ListingAssets = keyedBy('assets keyed by upper-case symbol', UPPER_SYMBOL, ListingAsset, {
  BTC: { name: 'Bitcoin', can_withdraw: true, can_deposit: true, min_withdraw: '0.0005', max_withdraw: '0' },
});

export const ListingSummary = Type.Object(
  {
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
  {
    description: "a market's 24-hour figures (trades with now - 24h < time <= now) and best prices",
    additionalProperties: false,
  },
);

export const ListingSummaries = keyedBy(
  'listed markets keyed by upper-case BASE_QUOTE',
  UPPER_PAIR,
  ListingSummary,
  {
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
  },
);

export const ListingTicker = Type.Object(
  {
    base_name: text('name of the base asset', 'Bitcoin'),
    quote_name: text('name of the quote asset', 'Tether'),
    last_price: listingLastPrice('64946.00'),
    base_volume: decimal('24-hour volume in the base asset at the amount scale', '357.27641833'),
    quote_volume: decimal('24-hour volume in the quote asset at the price scale', '23217561.97'),
    isFrozen: IS_FROZEN,
  },
  { description: "a market's last price and 24-hour volumes", additionalProperties: false },
);

export const ListingTickers = keyedBy(
  'listed markets keyed by lower-case base_quote',
  LOWER_PAIR,
  ListingTicker,
  {
    btc_usdt: {
      base_name: 'Bitcoin',
      quote_name: 'Tether',
      last_price: '64946.00',
      base_volume: '357.27641833',
      quote_volume: '23217561.97',
      isFrozen: '0',
    },
  },
);

export const ListingOrderBook = Type.Object(
  {
    timestamp: unixMsText("the book's last update", '1795688485807'),
    bids: bookEntries('descending'),
    asks: bookEntries('ascending'),
  },
  {
    additionalProperties: false,
    examples: [
      {
        timestamp: '1795688485807',
        bids: [['64946.00', '0.06666296']],
        asks: [['64966.00', '0.24337812']],
      },
    ],
  },
);

export const ListingTrade = Type.Object(
  {
    tradeID: text("the exchange's trade id", '5013747', DIGITS),
    price: decimal('price at the price scale', '64946.00'),
    base_volume: decimal('amount in the base asset at the amount scale', '0.73702901'),
    quote_volume: decimal('price x amount in the quote asset at the price scale', '47867.09'),
    trade_timestamp: unixMsText('time of the trade', '1795688485565'),
    type: TAKER_SIDE,
  },
  { additionalProperties: false },
);

export const ListingTrades = Type.Array(ListingTrade, {
  description: 'every trade of the last 24 hours, newest first',
});

/** The family's schemas by their name in the documents. */
export const LISTING_SCHEMAS = {
  ListingAsset,
  ListingAssets,
  ListingSummary,
  ListingSummaries,
  ListingTicker,
  ListingTickers,
  ListingOrderBook,
  ListingTrade,
  ListingTrades,
};

export type ListingAssetRecord = Static<typeof ListingAsset>;
export type ListingSummaryRecord = Static<typeof ListingSummary>;
export type ListingTickerRecord = Static<typeof ListingTicker>;
export type ListingOrderBookRecord = Static<typeof ListingOrderBook>;
export type ListingTradeRecord = Static<typeof ListingTrade>;
