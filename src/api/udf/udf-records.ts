import { CHART_RESOLUTION_NAMES, MINUTE_RESOLUTIONS } from '../../market/bars/chart-resolution';
import { BarAnswer } from '../charts/chart-bars';
import { WireRecord } from '../schema/wire-parts';
import { ChartMarket } from '../tradingview/chart-markets';
import { barArrays } from '../tradingview/chart-bar-arrays';
import { unixSecondsOf } from '../tradingview/chart-query';
import {
  CHART_SESSION,
  CHART_TIMEZONE,
  CHART_TYPE,
  chartDescription,
} from '../tradingview/tradingview-records';

import { UdfConfig, UdfHistory, UdfSearchResult, UdfSymbol } from './udf-schemas';

/** The Charting Library's UDF datafeed bodies: `/config`, `/symbols`, `/search`, `/history`. */

export function udfConfigRecord(exchange: string): WireRecord<typeof UdfConfig> {
  return {
    supported_resolutions: [...CHART_RESOLUTION_NAMES],
    supports_search: true,
    supports_group_request: false,
    supports_marks: false,
    supports_timescale_marks: false,
    supports_time: true,
    exchanges: [
      { value: '', name: 'All Exchanges', desc: '' },
      { value: exchange, name: exchange, desc: exchange },
    ],
    symbols_types: [
      { name: 'All types', value: '' },
      { name: 'Crypto', value: CHART_TYPE },
    ],
  };
}

export function udfSymbolRecord(
  entry: ChartMarket,
  exchange: string,
  assetName: (symbol: string) => string,
): WireRecord<typeof UdfSymbol> {
  const { market } = entry;
  return {
    name: entry.symbol,
    ticker: entry.symbol,
    full_name: `${exchange}:${entry.symbol}`,
    description: chartDescription(entry, assetName),
    type: CHART_TYPE,
    session: CHART_SESSION,
    timezone: CHART_TIMEZONE,
    exchange,
    listed_exchange: exchange,
    format: 'price',
    minmov: 1,
    pricescale: 10 ** market.priceScale,
    has_intraday: true,
    has_daily: true,
    has_weekly_and_monthly: true,
    supported_resolutions: [...CHART_RESOLUTION_NAMES],
    // Every minute resolution the gateway builds; the library builds others (3, 120…) from them.
    intraday_multipliers: MINUTE_RESOLUTIONS.map(String),
    daily_multipliers: ['1'],
    weekly_multipliers: ['1'],
    monthly_multipliers: ['1'],
    volume_precision: market.amountScale,
    data_status: 'streaming',
    currency_code: market.quoteAsset.toUpperCase(),
    visible_plots_set: 'ohlcv',
  };
}

export function udfSearchRecord(
  entry: ChartMarket,
  exchange: string,
  assetName: (symbol: string) => string,
): WireRecord<typeof UdfSearchResult> {
  return {
    symbol: entry.symbol,
    full_name: `${exchange}:${entry.symbol}`,
    description: chartDescription(entry, assetName),
    exchange,
    ticker: entry.symbol,
    type: CHART_TYPE,
  };
}

/** `s: ok` with the bars; without a bar, `no_data` with `nextTime` (the newest older bar's start, seconds) when there is one. */
export function udfHistoryRecord(entry: ChartMarket, answer: BarAnswer): WireRecord<typeof UdfHistory> {
  if (answer.bars.length > 0) return { s: 'ok' as const, ...barArrays(entry.market, answer.bars) };
  return answer.previous === undefined
    ? { s: 'no_data' as const }
    : { s: 'no_data' as const, nextTime: unixSecondsOf(answer.previous) };
}
