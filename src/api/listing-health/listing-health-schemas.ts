import { Type } from '@sinclair/typebox';
import { LISTING_FLAG_CODES } from '../../market/listing-health/listing-flag';
import {
  decimal,
  keyedBy,
  LOWER_PAIR,
  nullable,
  oneOfTexts,
  PERCENT,
  text,
  UPPER_PAIR,
  UPPER_SYMBOL,
  WireRecord,
} from '../schema/wire-parts';

/** `/listing-health`: what CoinGecko and CoinMarketCap will judge each market by. */

const milliseconds = (description: string, example: number) =>
  Type.Integer({ minimum: 0, description, examples: [example] });
const dollars = (description: string, example: string) =>
  nullable(Type.String({ pattern: '^(0|[1-9][0-9]*)\\.[0-9]{2}$', description, examples: [example] }));

export const ListingHealthFlag = Type.Object(
  {
    code: oneOfTexts(LISTING_FLAG_CODES, { examples: ['thin_depth'] }),
    message: text('what is wrong, with the figures', 'the -2 % depth is 512.20 USD, under 1000 USD'),
  },
  { additionalProperties: false },
);

const pairFields = {
  base_currency: Type.Optional(text('the base asset', 'BTC', UPPER_SYMBOL)),
};

export const ListingHealthMarket = Type.Object(
  {
    instrument: text('the instrument', 'btc_usdt', LOWER_PAIR),
    base: text('the base asset', 'BTC', UPPER_SYMBOL),
    quote: text('the quote asset', 'USDT', UPPER_SYMBOL),
    orientation: Type.Object(
      {
        summary_key: Type.Optional(text('its key in /summary', 'BTC_USDT', UPPER_PAIR)),
        ticker_key: Type.Optional(text('its key in /ticker', 'btc_usdt', LOWER_PAIR)),
        cmc: Type.Optional(
          Type.Object(
            {
              trading_pairs: Type.Optional(text('the pair', 'BTC_USDT', UPPER_PAIR)),
              ...pairFields,
              quote_currency: Type.Optional(text('the quote asset', 'USDT', UPPER_SYMBOL)),
            },
            { additionalProperties: false },
          ),
        ),
        coingecko: Type.Optional(
          Type.Object(
            {
              ticker_id: Type.Optional(text('the pair', 'BTC_USDT', UPPER_PAIR)),
              ...pairFields,
              target_currency: Type.Optional(text('the quote asset', 'USDT', UPPER_SYMBOL)),
            },
            { additionalProperties: false },
          ),
        ),
      },
      {
        description: 'how each listing format names the pair and which side is the base',
        additionalProperties: false,
      },
    ),
    status: text("the exchange's market status (Halted and Paused are frozen)", 'Open'),
    sync_state: nullable(oneOfTexts(['syncing', 'live', 'resync'], { description: "the book's state" })),
    book_version: nullable(
      Type.Integer({
        description:
          'the version of the book the ±2 % depths come from (the best prices and spread are current)',
        examples: [120345],
      }),
    ),
    best_bid: nullable(decimal('best bid', '64946.00')),
    best_ask: nullable(decimal('best ask', '64966.00')),
    mid: nullable(
      decimal(
        '(best bid + best ask) / 2, exact: one decimal more than the price scale when needed',
        '64956.00',
      ),
    ),
    spread_percentage: nullable(
      Type.String({
        pattern: PERCENT,
        description: '(best ask - best bid) / mid x 100, negative for a crossed book',
        examples: ['0.03'],
      }),
    ),
    depth_plus_2_percent_quote: nullable(
      decimal('Σ price x amount of the asks priced at most mid x 1.02', '812345.12'),
    ),
    depth_minus_2_percent_quote: nullable(
      decimal('Σ price x amount of the bids priced at least mid x 0.98', '790000.55'),
    ),
    depth_plus_2_percent_base: nullable(decimal('Σ amount of those asks', '12.50000000')),
    depth_minus_2_percent_base: nullable(decimal('Σ amount of those bids', '12.20000000')),
    usd: Type.Object(
      {
        quote_price_path: nullable(
          Type.Array(Type.String({ pattern: LOWER_PAIR }), {
            description:
              'the markets whose mids price the quote asset, in order; empty for a reference asset',
            examples: [['eth_btc', 'btc_usdt']],
          }),
        ),
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
      {
        description:
          "in US dollars through the exchange's own markets (USD_REFERENCE_ASSETS count as one dollar); null with `reason` when no market prices the quote asset",
        additionalProperties: false,
      },
    ),
    last_trade_age_ms: nullable(milliseconds('since the newest trade known', 1_200)),
    trades_24h: milliseconds('trades in the 24-hour window', 5_400),
    base_volume_24h: decimal('as /summary baseVolume', '357.27641833'),
    quote_volume_24h: decimal('as /summary quoteVolume', '23217561.97'),
    book_age_ms: nullable(milliseconds('since the book was last known current', 180)),
    flags: Type.Array(ListingHealthFlag),
  },
  {
    description:
      "one market's figures: prices and quote amounts at the price scale, base amounts at the amount scale, dollars and percentages at two decimals, rounded half away from zero; null where an empty side leaves a figure undefined",
    additionalProperties: false,
  },
);

export const ListingHealth = Type.Object(
  {
    generated_at: milliseconds('Unix milliseconds the ages are counted to', 1_795_000_000_000),
    books_read_at: milliseconds(
      'Unix milliseconds the books behind the ±2 % depths were read',
      1_794_999_995_000,
    ),
    thresholds: Type.Object(
      {
        usd_reference_assets: Type.Optional(Type.Array(Type.String({ pattern: UPPER_SYMBOL }))),
        max_spread_percent: Type.Optional(
          decimal('wide_spread above this spread, in percent of the mid', '2'),
        ),
        min_depth_usd: Type.Optional(
          decimal("thin_depth when either side's ±2 % depth is worth less", '1000'),
        ),
        stale_trades_ms: Type.Optional(
          milliseconds("stale_trades when a market's last trade is older", 3_600_000),
        ),
        stale_book_ms: Type.Optional(
          milliseconds("stale_book when a market's book was last known current longer ago", 60_000),
        ),
        volume_depth_ratio: Type.Optional(
          decimal(
            'volume_without_depth when the 24-hour volume exceeds the ±2 % depth this many times',
            '100',
          ),
        ),
      },
      {
        description: 'the thresholds the flags are judged by (USD_REFERENCE_ASSETS; the others are built in)',
        additionalProperties: false,
      },
    ),
    markets: keyedBy('each listed market, keyed as /summary keys it', UPPER_PAIR, ListingHealthMarket, {}),
  },
  { additionalProperties: false },
);

/** The family's schemas by their name in the documents. */
export const LISTING_HEALTH_SCHEMAS = { ListingHealthFlag, ListingHealthMarket, ListingHealth };

export type ListingHealthRecord = WireRecord<typeof ListingHealth>;
export type ListingHealthMarketRecord = WireRecord<typeof ListingHealthMarket>;
