import {
  CHART_RESOLUTION_NAMES,
  ChartResolution,
  parseChartResolution,
} from '../../market/bars/chart-resolution';
import { BarQuery } from '../charts/chart-bars';
import { echoedInput } from '../http/echoed-input';
import { ChartMarket } from './chart-markets';

/** A request TradingView or the Charting Library cannot be answered for; its message names the parameter. */
export class ChartQueryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ChartQueryError';
  }
}

/** Unix seconds as far as a JavaScript date reaches either side of 1970: milliseconds stay exact integers. */
export const MAX_UNIX_SECONDS = 8_640_000_000_000;
/** More bars than any chart asks for at once (a day of 1-minute bars is 1440). */
export const MAX_COUNTBACK = 10_000;
const EARLIEST_MS = -MAX_UNIX_SECONDS * 1000;
const SIGNED_DIGITS = /^-?\d+$/;

export interface ChartHistoryQuery {
  readonly market: ChartMarket;
  readonly resolution: ChartResolution;
  /** Unix seconds, as the client gave them. */
  readonly from: number;
  readonly to: number;
  readonly countback?: number;
}

/** The one text value of a parameter; undefined when absent or empty. */
export function chartParam(query: Record<string, unknown>, name: string): string | undefined {
  const value = query[name];
  if (value === undefined || value === '') return undefined;
  if (typeof value === 'string') return value;
  throw new ChartQueryError(`${name} must be given once`);
}

function required(query: Record<string, unknown>, name: string): string {
  const value = chartParam(query, name);
  if (value === undefined) throw new ChartQueryError(`${name} is required`);
  return value;
}

function unixSeconds(query: Record<string, unknown>, name: string): number {
  const given = required(query, name);
  if (!SIGNED_DIGITS.test(given))
    throw new ChartQueryError(`${name} must be Unix seconds, an integer, got ${echoedInput(given)}`);
  // Compared as text first: twenty digits are past Number's exact integers.
  const seconds = Number(given);
  if (given.replace(/^-?0*/, '').length > 13 || Math.abs(seconds) > MAX_UNIX_SECONDS)
    throw new ChartQueryError(
      `${name} must be within ${MAX_UNIX_SECONDS} seconds of 1970, got ${echoedInput(given)}`,
    );
  return seconds === 0 ? 0 : seconds;
}

/** The optional `countback`: a positive integer up to MAX_COUNTBACK. */
function countback(query: Record<string, unknown>): number | undefined {
  const given = chartParam(query, 'countback');
  if (given === undefined) return undefined;
  if (!/^\d{1,6}$/.test(given) || Number(given) < 1 || Number(given) > MAX_COUNTBACK)
    throw new ChartQueryError(
      `countback must be an integer from 1 to ${MAX_COUNTBACK}, got ${echoedInput(given)}`,
    );
  return Number(given);
}

/** The resolution a `resolution` parameter names, one the gateway builds. */
export function chartResolution(given: string): ChartResolution {
  const resolution = parseChartResolution(given);
  if (!resolution)
    throw new ChartQueryError(
      `resolution must be one of ${CHART_RESOLUTION_NAMES.join(', ')} (or D, W, M), got ${echoedInput(given)}`,
    );
  return resolution;
}

/** `symbol`, `resolution`, `from`, `to` and the optional `countback` of a history request. */
export function readChartHistoryQuery(
  query: Record<string, unknown>,
  find: (name: string) => ChartMarket | undefined,
): ChartHistoryQuery {
  const symbol = required(query, 'symbol');
  const market = find(symbol);
  if (!market) throw new ChartQueryError(`unknown symbol ${echoedInput(symbol)}`);
  const resolution = chartResolution(required(query, 'resolution'));
  const from = unixSeconds(query, 'from');
  const to = unixSeconds(query, 'to');
  if (from > to) throw new ChartQueryError(`from must not be after to, got from ${from} and to ${to}`);
  return { market, resolution, from, to, countback: countback(query) };
}

/**
 * The bars a history request wants, in milliseconds: TradingView's `to` is inclusive, the UDF
 * datafeed's exclusive. With `countback` the newest that many bars before the end, whatever `from` says.
 */
export function barQuery(query: ChartHistoryQuery, toInclusive: boolean): BarQuery {
  const to = query.to * 1000 + (toInclusive ? 1 : 0);
  return query.countback === undefined
    ? { from: query.from * 1000, to }
    : { from: EARLIEST_MS, to, countback: query.countback };
}

/** A bar time in Unix seconds; bars start on whole minutes. */
export function unixSecondsOf(ms: number): number {
  return Math.floor(ms / 1000);
}
