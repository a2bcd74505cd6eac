import { PageRequest } from '../accounts/record-page';
import { Side } from '../engine/side';
import { badRequest } from './private-error';

export type Query = Readonly<Record<string, unknown>>;

/** Default and largest page sizes of the paged private replies (the spec shows 15; it names no maximum). */
export const DEFAULT_PER_PAGE = 15;
export const MAX_PER_PAGE = 1000;

const DATE = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?Z?$/;

/** A single text parameter, or undefined when absent or empty. */
export function text(query: Query, name: string): string | undefined {
  const value = query[name];
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw badRequest(`${name}: given more than once`);
  return value;
}

export function pageRequest(query: Query): PageRequest {
  return {
    page: integer(query, 'page', 1, Number.MAX_SAFE_INTEGER) ?? 1,
    perPage: integer(query, 'perPage', 1, MAX_PER_PAGE) ?? DEFAULT_PER_PAGE,
  };
}

export function integer(query: Query, name: string, min: number, max: number): number | undefined {
  const value = text(query, name);
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!/^-?\d+$/.test(value) || number < min || number > max)
    throw badRequest(`${name}: must be an integer from ${min} to ${max}, got ${value}`);
  return number;
}

/** `startDate` / `endDate` (`YYYY-MM-DDThh:mm:ss.s`, UTC) as Unix milliseconds. */
export function date(query: Query, name: string): number | undefined {
  const value = text(query, name);
  if (value === undefined) return undefined;
  const time = DATE.test(value)
    ? Date.parse(value.endsWith('Z') ? value : `${value}${value.includes('T') ? 'Z' : ''}`)
    : NaN;
  if (Number.isNaN(time))
    throw badRequest(`${name}: must be a UTC date-time YYYY-MM-DDThh:mm:ss.s, got ${value}`);
  return time;
}

export function flag(query: Query, name: string): boolean | undefined {
  const value = text(query, name);
  if (value === undefined) return undefined;
  if (value !== 'true' && value !== 'false') throw badRequest(`${name}: must be true or false, got ${value}`);
  return value === 'true';
}

/** `side` as `buy`/`sell` or `0`/`1`. */
export function side(query: Query): Side | undefined {
  const value = text(query, 'side')?.toLowerCase();
  if (value === undefined) return undefined;
  if (value === 'buy' || value === '0') return Side.Buy;
  if (value === 'sell' || value === '1') return Side.Sell;
  throw badRequest(`side: must be buy, sell, 0 or 1, got ${value}`);
}

export function oneOf<T extends string>(query: Query, name: string, allowed: readonly T[]): T | undefined {
  const value = text(query, name);
  if (value === undefined) return undefined;
  const found = allowed.find((candidate) => candidate.toLowerCase() === value.toLowerCase());
  if (!found) throw badRequest(`${name}: must be one of ${allowed.join(', ')}, got ${value}`);
  return found;
}

/** The sort of order and trade history: `AscOrder` or `DescOrder`, not both. */
export function historySort<F extends string>(
  query: Query,
  fields: readonly F[],
): { readonly field: F; readonly descending: boolean } | undefined {
  const ascending = oneOf(query, 'AscOrder', fields);
  const descending = oneOf(query, 'DescOrder', fields);
  if (ascending && descending) throw badRequest('AscOrder and DescOrder: give one of them');
  if (ascending) return { field: ascending, descending: false };
  if (descending) return { field: descending, descending: true };
  return undefined;
}

/** The filters a paged reply echoes: the parameters given, apart from signing and paging. */
export function echoedFilters(query: Query): Record<string, unknown> {
  const filters: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(query)) {
    if (['ts', 'nonce', 'page', 'perPage'].includes(name) || value === '') continue;
    filters[name.charAt(0).toLowerCase() + name.slice(1)] = value;
  }
  return filters;
}
