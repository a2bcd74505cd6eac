import { Type } from '@sinclair/typebox';
import { oneOfTexts, text } from '../schema/wire-parts';
import { CHART_SYMBOL, ChartBarsOk, ChartError, RESOLUTION_NAMES } from '../tradingview/tradingview-schemas';

/** The Charting Library's UDF datafeed formats: like TradingView's bars, `nextTime` instead of `nb`. */

const EXCHANGE = text('the exchange, upper case (CHARTS_EXCHANGE_NAME)', 'SANDBOX', '^[A-Z0-9._]+$');
const FULL_NAME = text('EXCHANGE:SYMBOL', 'SANDBOX:BTCUSDT', '^[A-Z0-9._]+:[A-Z0-9._]+$');
const DESCRIPTION = text("base / quote by the assets' names", 'Bitcoin / Tether');
const CRYPTO = Type.Literal('crypto', { description: 'crypto' });
const ONE = Type.Array(Type.Literal('1'), { examples: [['1']] });

const labelled = (value: string, name: string) =>
  Type.Object(
    { value: text('the value to filter by, empty for all', value), name: text('shown', name) },
    { additionalProperties: true },
  );

export const UdfConfig = Type.Object(
  {
    supported_resolutions: RESOLUTION_NAMES,
    supports_search: Type.Literal(true, { description: '/udf/search is served' }),
    supports_group_request: Type.Literal(false, { description: 'symbols are asked one at a time' }),
    supports_marks: Type.Literal(false, { description: 'no marks' }),
    supports_timescale_marks: Type.Literal(false, { description: 'no timescale marks' }),
    supports_time: Type.Literal(true, { description: '/udf/time is served' }),
    exchanges: Type.Array(
      Type.Object(
        {
          value: text('the value to filter by, empty for all', 'SANDBOX'),
          name: text('shown', 'SANDBOX'),
          desc: text('described', 'SANDBOX'),
        },
        { additionalProperties: false },
      ),
      { description: 'all exchanges (empty value), then the gateway exchange' },
    ),
    symbols_types: Type.Array(labelled('crypto', 'Crypto'), {
      description: 'all types (empty value), then crypto',
    }),
  },
  { additionalProperties: false },
);

export const UdfSymbol = Type.Object(
  {
    name: text('the symbol', 'BTCUSDT', CHART_SYMBOL),
    ticker: text('the name /udf/history takes', 'BTCUSDT', CHART_SYMBOL),
    full_name: FULL_NAME,
    description: DESCRIPTION,
    type: CRYPTO,
    session: Type.Literal('24x7', { description: 'traded around the clock' }),
    timezone: Type.Literal('Etc/UTC', { description: 'bars are UTC' }),
    exchange: EXCHANGE,
    listed_exchange: EXCHANGE,
    format: Type.Literal('price', { description: 'prices are shown as decimals' }),
    minmov: Type.Literal(1, { description: 'one unit of the price scale per tick' }),
    pricescale: Type.Integer({ minimum: 1, description: '10^priceScale', examples: [100] }),
    has_intraday: Type.Literal(true, { description: 'minute bars are served' }),
    has_daily: Type.Literal(true, { description: 'daily bars are served' }),
    has_weekly_and_monthly: Type.Literal(true, { description: 'weekly and monthly bars are served' }),
    supported_resolutions: RESOLUTION_NAMES,
    intraday_multipliers: Type.Array(oneOfTexts(['1', '5', '15', '30', '60', '240']), {
      description: 'the minute resolutions served; the library builds others from them',
      examples: [['1', '5', '15', '30', '60', '240']],
    }),
    daily_multipliers: ONE,
    weekly_multipliers: ONE,
    monthly_multipliers: ONE,
    volume_precision: Type.Integer({
      minimum: 0,
      description: 'decimals of volumes (amountScale)',
      examples: [8],
    }),
    data_status: Type.Literal('streaming', { description: 'bars are current' }),
    currency_code: text('the quote asset, upper case', 'USDT'),
    visible_plots_set: Type.Literal('ohlcv', { description: 'bars carry a volume' }),
  },
  { description: "the Charting Library's symbol information", additionalProperties: false },
);

export const UdfSymbolAnswer = Type.Union([UdfSymbol, ChartError], {
  description: 'the symbol, or an error (unknown or missing symbol)',
});

export const UdfSearchResult = Type.Object(
  {
    symbol: text('the symbol', 'BTCUSDT', CHART_SYMBOL),
    full_name: FULL_NAME,
    description: DESCRIPTION,
    exchange: EXCHANGE,
    ticker: text('the name /udf/symbols takes', 'BTCUSDT', CHART_SYMBOL),
    type: CRYPTO,
  },
  { additionalProperties: false },
);

export const UdfSearchAnswer = Type.Union(
  [Type.Array(UdfSearchResult, { description: 'the matching markets, by instrument' }), ChartError],
  { description: 'the matches, or an error (a bad limit)' },
);

export const UdfConfigAnswer = Type.Union([UdfConfig, ChartError], {
  description: 'the configuration, or an error (no market data loaded yet)',
});

export const UdfNoData = Type.Object(
  {
    s: Type.Literal('no_data', { description: 'no bar in the range' }),
    nextTime: Type.Optional(
      Type.Integer({
        description: 'start of the newest bar before the range, Unix seconds; absent when history holds none',
        examples: [1795676400],
      }),
    ),
  },
  { additionalProperties: false },
);

export const UdfHistory = Type.Union([ChartBarsOk, UdfNoData, ChartError], {
  description: 'the bars, no_data, or an error naming the bad parameter',
});

/** The family's schemas by their name in the documents. */
export const UDF_SCHEMAS = {
  UdfConfig,
  UdfConfigAnswer,
  UdfSymbol,
  UdfSymbolAnswer,
  UdfSearchResult,
  UdfSearchAnswer,
  UdfNoData,
  UdfHistory,
};
