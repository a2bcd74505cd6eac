import { Static, TSchema, Type } from '@sinclair/typebox';
import { CHART_RESOLUTION_NAMES } from '../../market/bars/chart-resolution';
import { oneOfTexts, text } from '../schema/wire-parts';

/**
 * TradingView's data-integration formats (`/symbol_info`, `/history`): decimals are bare JSON numbers
 * written with their exact digits, times Unix seconds, errors `{"s":"error","errmsg"}` with HTTP 200.
 */

/** An upper-case TradingView symbol: `BTCUSDT`, or `BTC_USDT` where two markets would share a name. */
export const CHART_SYMBOL = '^[A-Z0-9._]+$';
const EXCHANGE_NAME = '^[A-Z0-9._]+$';

/** A price or volume as a bare JSON number with every digit of the market's scale. */
export function chartNumber(description: string, example: number) {
  return Type.Number({
    minimum: 0,
    description: `${description}; a JSON number with every digit, to be parsed without binary floating point`,
    examples: [example],
  });
}

const perSymbol = <T extends TSchema>(item: T, description: string, example: unknown) =>
  Type.Array(item, { description: `${description}, one per symbol in its order`, examples: [example] });

export const RESOLUTION_NAMES = Type.Array(oneOfTexts(CHART_RESOLUTION_NAMES), {
  description: 'every resolution the gateway builds: minutes, 1D, 1W, 1M',
  examples: [[...CHART_RESOLUTION_NAMES]],
});

export const TradingViewSymbolInfo = Type.Object(
  {
    s: Type.Literal('ok', { description: 'ok' }),
    symbol: perSymbol(
      text('the symbol shown', 'BTCUSDT', CHART_SYMBOL),
      'every listed market as <BASE><QUOTE>, upper case; BASE_QUOTE where two markets would share a name',
      ['BTCUSDT', 'ETHUSDT'],
    ),
    ticker: perSymbol(
      text('the name /history takes', 'BTCUSDT', CHART_SYMBOL),
      'the name to request /history with: the symbol itself',
      ['BTCUSDT', 'ETHUSDT'],
    ),
    description: perSymbol(
      text('base / quote by their names', 'Bitcoin / Tether'),
      "the assets' names (their symbols where the catalogue has no name)",
      ['Bitcoin / Tether', 'Ethereum / Tether'],
    ),
    'exchange-listed': text('the exchange, upper case (CHARTS_EXCHANGE_NAME)', 'SANDBOX', EXCHANGE_NAME),
    'exchange-traded': text('the exchange, upper case (CHARTS_EXCHANGE_NAME)', 'SANDBOX', EXCHANGE_NAME),
    minmovement: Type.Literal(1, { description: 'one unit of the price scale per tick' }),
    minmovement2: Type.Literal(0, { description: '0: not Forex' }),
    pricescale: perSymbol(
      Type.Integer({ minimum: 1, description: '10^priceScale', examples: [100] }),
      '10 to the power of the decimals of the price (the market priceScale)',
      [100, 100],
    ),
    currency: perSymbol(text('quote asset, upper case', 'USDT'), 'the quote asset', ['USDT', 'USDT']),
    'base-currency': perSymbol(text('base asset, upper case', 'BTC'), 'the base asset', ['BTC', 'ETH']),
    type: Type.Literal('crypto', { description: 'crypto' }),
    timezone: Type.Literal('Etc/UTC', { description: 'bars are UTC' }),
    'session-regular': Type.Literal('24x7', { description: 'traded around the clock' }),
    'has-intraday': Type.Literal(true, { description: 'minute bars are served' }),
    'has-daily': Type.Literal(true, { description: 'daily bars (00:00 UTC) are served' }),
    'has-weekly-and-monthly': Type.Literal(true, {
      description: 'weekly (from Monday) and monthly bars are served',
    }),
    'supported-resolutions': RESOLUTION_NAMES,
    'intraday-multipliers': Type.Array(Type.Literal('1'), {
      description: 'TradingView builds every other intraday resolution from the 1-minute bars',
      examples: [['1']],
    }),
    'volume-precision': perSymbol(
      Type.Integer({ minimum: 0, description: 'decimals of the volume', examples: [8] }),
      'decimals of volumes: the market amountScale',
      [8, 8],
    ),
    'bar-source': Type.Literal('trade', { description: 'bars are built from trades' }),
    'bar-transform': Type.Literal('none', { description: 'open is the first trade of the bar' }),
    'bar-fillgaps': Type.Literal(false, { description: 'a minute without a trade has no bar' }),
  },
  {
    description:
      'every listed market; a field that can differ between markets is an array in the order of symbol, the others one value for all',
    additionalProperties: false,
  },
);

export const ChartBarsOk = Type.Object(
  {
    s: Type.Literal('ok', { description: 'at least one bar' }),
    t: Type.Array(Type.Integer({ description: 'bar start, Unix seconds' }), {
      description: 'bar starts, Unix seconds, ascending',
      examples: [[1795680000, 1795680060]],
    }),
    o: Type.Array(chartNumber('first trade price, at the price scale', 64950.0), { description: 'opens' }),
    h: Type.Array(chartNumber('highest trade price, at the price scale', 65023.0), { description: 'highs' }),
    l: Type.Array(chartNumber('lowest trade price, at the price scale', 64941.0), { description: 'lows' }),
    c: Type.Array(chartNumber('last trade price, at the price scale', 64946.0), { description: 'closes' }),
    v: Type.Array(chartNumber('traded base amount, at the amount scale', 1.25), { description: 'volumes' }),
  },
  {
    description: 'the bars, one entry per bar in each array; a bar only for a period with a trade',
    additionalProperties: false,
  },
);

export const TradingViewNoData = Type.Object(
  {
    s: Type.Literal('no_data', { description: 'no bar in the range' }),
    nb: Type.Optional(
      Type.Integer({
        description: 'start of the newest bar before the range, Unix seconds; absent when history holds none',
        examples: [1795676400],
      }),
    ),
  },
  { additionalProperties: false },
);

export const ChartError = Type.Object(
  {
    s: Type.Literal('error', { description: 'the request cannot be answered' }),
    errmsg: text('what is wrong, naming the parameter', 'unknown symbol "FOOBAR"'),
  },
  {
    description: 'answered with HTTP 200, as TradingView and the Charting Library expect',
    additionalProperties: false,
  },
);

export const TradingViewSymbolInfoAnswer = Type.Union([TradingViewSymbolInfo, ChartError], {
  description: 'the markets, or an error (no market data loaded yet)',
});

export const TradingViewHistory = Type.Union([ChartBarsOk, TradingViewNoData, ChartError], {
  description: 'the bars, no_data, or an error naming the bad parameter',
});

/** The family's schemas by their name in the documents. */
export const TRADINGVIEW_SCHEMAS = {
  TradingViewSymbolInfo,
  TradingViewSymbolInfoAnswer,
  ChartBarsOk,
  TradingViewNoData,
  ChartError,
  TradingViewHistory,
};

export type TradingViewSymbolInfoRecord = Static<typeof TradingViewSymbolInfo>;
