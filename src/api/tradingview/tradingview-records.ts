import { CHART_RESOLUTION_NAMES } from '../../market/bars/chart-resolution';
import { BarAnswer } from '../charts/chart-bars';
import { WireRecord } from '../schema/wire-parts';
import { ChartMarket } from './chart-markets';
import { barArrays } from './chart-bar-arrays';
import { unixSecondsOf } from './chart-query';
import { ChartError, TradingViewHistory, TradingViewSymbolInfo } from './tradingview-schemas';

/**
 * TradingView's data-integration bodies (`/symbol_info`, `/history`). A field that is the same for
 * every market is one value; a field that can differ is an array in the order of `symbol`, even
 * when every entry is equal, so that the shape never changes with the markets listed.
 */

export const CHART_TIMEZONE = 'Etc/UTC';
export const CHART_SESSION = '24x7';
export const CHART_TYPE = 'crypto';

export function symbolInfoRecord(
  markets: readonly ChartMarket[],
  exchange: string,
  assetName: (symbol: string) => string,
): WireRecord<typeof TradingViewSymbolInfo> {
  const each = <T>(pick: (entry: ChartMarket) => T) => markets.map(pick);
  return {
    s: 'ok' as const,
    symbol: each((entry) => entry.symbol),
    ticker: each((entry) => entry.symbol),
    description: each((entry) => chartDescription(entry, assetName)),
    'exchange-listed': exchange,
    'exchange-traded': exchange,
    minmovement: 1,
    minmovement2: 0,
    pricescale: each((entry) => 10 ** entry.market.priceScale),
    currency: each((entry) => entry.market.quoteAsset.toUpperCase()),
    'base-currency': each((entry) => entry.market.baseAsset.toUpperCase()),
    type: CHART_TYPE,
    timezone: CHART_TIMEZONE,
    'session-regular': CHART_SESSION,
    'has-intraday': true,
    'has-daily': true,
    'has-weekly-and-monthly': true,
    'supported-resolutions': [...CHART_RESOLUTION_NAMES],
    // TradingView builds every other intraday resolution from the 1-minute bars.
    'intraday-multipliers': ['1'],
    'volume-precision': each((entry) => entry.market.amountScale),
    'bar-source': 'trade',
    'bar-transform': 'none',
    'bar-fillgaps': false,
  };
}

/** `Bitcoin / Tether`: the assets' names where the catalogue has them, else their symbols. */
export function chartDescription(entry: ChartMarket, assetName: (symbol: string) => string): string {
  return `${assetName(entry.market.baseAsset.toUpperCase())} / ${assetName(entry.market.quoteAsset.toUpperCase())}`;
}

/**
 * `s: ok` with the bars; without a bar, `no_data` with `nb`, the start of the newest older bar in
 * seconds, or without `nb` when history holds none.
 */
export function tradingViewHistoryRecord(
  entry: ChartMarket,
  answer: BarAnswer,
): WireRecord<typeof TradingViewHistory> {
  if (answer.bars.length > 0) return { s: 'ok' as const, ...barArrays(entry.market, answer.bars) };
  return answer.previous === undefined
    ? { s: 'no_data' as const }
    : { s: 'no_data' as const, nb: unixSecondsOf(answer.previous) };
}

export function chartErrorRecord(message: string): WireRecord<typeof ChartError> {
  return { s: 'error' as const, errmsg: message };
}
