import { Static, Type } from '@sinclair/typebox';
import { LOWER_PAIR, oneOfTexts, text } from '../schema/wire-parts';

/**
 * The mirror of the exchange's public REST (its spec 2.1-2.3, 4.1): the exchange's shapes, with
 * decimals as bare JSON numbers written with their exact digits, as the exchange writes them.
 */

/** A decimal the exchange writes as a JSON number; its digits may exceed a binary double's. */
function exactNumber(description: string, example: number) {
  return Type.Number({
    minimum: 0,
    description: `${description}; a JSON number with every digit, to be parsed without binary floating point`,
    examples: [example],
  });
}

export const EXCHANGE_TIME = '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?Z?$';
const UTC_TIME = '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?Z$';
const UNDOCUMENTED = 'in the 0.1.3 sample; meaning not documented by the exchange';

export const MirrorMarket = Type.Object(
  {
    baseAsset: text('base asset, lower case', 'btc'),
    quoteAsset: text('quote asset, lower case', 'usdt'),
    minAmount: exactNumber('smallest order amount, in the base asset', 0.0001),
    priceDeviation: exactNumber(
      'largest deviation of a limit price from the best price, 0 to 1 (0.15 is 15 %)',
      0.15,
    ),
    hidden: Type.Union([Type.Literal(0), Type.Literal(1)], {
      description: '1: hidden, not listed by the aggregator endpoints; 0: available',
      examples: [0],
    }),
    makerFee: exactNumber('fee of an order that adds liquidity, 0 to 1', 0.001),
    takerFee: exactNumber('fee of an order that takes liquidity, 0 to 1', 0.002),
    makerFeeLimit: Type.Optional(exactNumber(UNDOCUMENTED, 0)),
    takerFeeLimit: Type.Optional(exactNumber(UNDOCUMENTED, 0)),
    minPrice: Type.Optional(exactNumber(UNDOCUMENTED, 0)),
    maxPrice: Type.Optional(exactNumber(UNDOCUMENTED, 0)),
    fee: Type.Optional(exactNumber(UNDOCUMENTED, 0)),
    priceScale: Type.Integer({
      minimum: 2,
      maximum: 18,
      description: 'decimal places of prices',
      examples: [2],
    }),
    amountScale: Type.Integer({
      minimum: 2,
      maximum: 18,
      description: 'decimal places of amounts',
      examples: [8],
    }),
    createdAt: text(
      'creation time, UTC, YYYY-MM-DDThh:mm:ss with optional fraction',
      '2024-03-14T09:26:53.589793',
      EXCHANGE_TIME,
    ),
    updatedAt: text('last update, UTC, same format', '2024-03-14T09:26:53.589793', EXCHANGE_TIME),
    status: Type.Union([oneOfTexts(['Open', 'Halted', 'Paused']), Type.Literal(0)], {
      description:
        'Open: orders accepted; Halted: new orders not accepted; Paused: placement rejected, placed limit orders ' +
        'still wait; one exchange sample has the number 0',
      examples: ['Open'],
    }),
    side: oneOfTexts(['BuySell', 'Buy', 'Sell'], {
      description: 'sides that may be traded',
      examples: ['BuySell'],
    }),
    isCustom: Type.Boolean({
      description: "true: a market configured on the exchange's side; false: a liquidity provider's market",
      examples: [false],
    }),
  },
  {
    description:
      "a market as the exchange sent it (the five fields of the exchange's 0.1.3 sample only when it sends them)",
    additionalProperties: false,
  },
);

export const MirrorExchangeInfo = Type.Object(
  {
    serverTime: Type.Integer({
      format: 'int64',
      minimum: 0,
      description:
        'time of the answer in .NET ticks (100 ns since 0001-01-01T00:00:00Z): 18 digits, beyond a double',
      examples: [639312852894980000],
    }),
    pairs: Type.Record(Type.String(), MirrorMarket, {
      description: 'every market of the exchange, hidden ones included, keyed by lower-case base_quote',
    }),
  },
  { additionalProperties: false },
);

export const MirrorDepthEntry = Type.Object(
  {
    amount: exactNumber('amount at the level, in the base asset', 0.75068501),
    price: exactNumber('price of the level', 62077),
  },
  { additionalProperties: false },
);

export const MirrorDepth = Type.Object(
  {
    instrument: text('the market, lower-case base_quote', 'btc_usdt', LOWER_PAIR),
    bids: Type.Array(MirrorDepthEntry, {
      description: 'every bid level, ascending by price as the exchange sends them (the best bid last)',
    }),
    asks: Type.Array(MirrorDepthEntry, { description: 'every ask level, ascending by price' }),
    version: Type.Integer({
      format: 'int64',
      minimum: 0,
      description: "the book's version",
      examples: [111123],
    }),
    askTotalAmount: exactNumber('exact sum of the ask amounts', 650.36995702),
    bidTotalAmount: exactNumber('exact sum of the bid amounts', 616.13215275),
    snapshot: Type.Literal(true, { description: 'always true for this snapshot' }),
  },
  { additionalProperties: false },
);

export const MirrorCandle = Type.Object(
  {
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
  { additionalProperties: false },
);

export const MirrorHistory = Type.Object(
  {
    success: Type.Literal(true, { description: 'always true in a 200' }),
    instrument: text('the market, lower-case base_quote', 'btc_usdt', LOWER_PAIR),
    data: Type.Array(MirrorCandle, {
      description: 'candles with trades in the range, oldest first, at most `count` (the newest)',
    }),
    startDateTime: text('the start of the range, UTC with Z', '2026-11-25T00:00:00Z', UTC_TIME),
    endDateTime: text('the end of the range, UTC with Z', '2026-11-27T00:00:00Z', UTC_TIME),
  },
  { additionalProperties: false },
);

/** The family's schemas by their name in the documents. */
export const MIRROR_SCHEMAS = {
  MirrorMarket,
  MirrorExchangeInfo,
  MirrorDepthEntry,
  MirrorDepth,
  MirrorCandle,
  MirrorHistory,
};

export type MirrorDepthRecord = Static<typeof MirrorDepth>;
export type MirrorCandleRecord = Static<typeof MirrorCandle>;
export type MirrorHistoryRecord = Static<typeof MirrorHistory>;
