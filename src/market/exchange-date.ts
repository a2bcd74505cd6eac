/** `YYYY-MM-DDThh:mm:ss`, an optional fraction of a second and an optional `Z`: the exchange's UTC dates. */
const EXCHANGE_DATE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?Z?$/;

/**
 * How a fraction finer than a millisecond becomes whole milliseconds: `floor` for instants the
 * exchange reports, `ceil` for range bounds, so that a half-open range [start, end) of such dates
 * selects exactly the whole-millisecond instants it contains.
 */
export type SubMillisecond = 'floor' | 'ceil';

/**
 * Unix milliseconds of an exchange date, read as UTC with or without a trailing `Z` (both occur:
 * `2019-11-14T16:18:49.253354`, `2021-05-06T07:08:09Z`). Undefined for text that is no such date or
 * names no real calendar instant (2024-02-30, 24:00:00).
 */
export function parseExchangeDate(text: string, rounding: SubMillisecond = 'floor'): number | undefined {
  const match = EXCHANGE_DATE.exec(text);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number);
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return undefined;
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, does not move years 0-99 into the 1900s.
  date.setUTCFullYear(year, month - 1, day);
  if (date.getUTCDate() !== day) return undefined;
  date.setUTCHours(hour, minute, second, 0);
  const nanoseconds = Number((match[7] ?? '').padEnd(9, '0'));
  const round = rounding === 'ceil' ? Math.ceil : Math.floor;
  return date.getTime() + round(nanoseconds / 1_000_000);
}

/** The same instant with a `Z` and the fraction's digits as sent, or undefined when it is no date. */
export function normalizeExchangeDate(text: string): string | undefined {
  if (parseExchangeDate(text) === undefined) return undefined;
  return text.endsWith('Z') ? text : `${text}Z`;
}

/** UTC text with a trailing Z, e.g. `2019-03-13T09:00:00Z`; milliseconds only when there are any. */
export function formatExchangeDate(unixMs: number): string {
  const iso = new Date(unixMs).toISOString();
  return iso.endsWith('.000Z') ? `${iso.slice(0, -5)}Z` : iso;
}

/** `YYYY-MM-DDThh:mm:ss` in UTC, the format of the exchange's query dates (whole seconds). */
export function formatQueryDate(unixMs: number): string {
  return new Date(unixMs).toISOString().slice(0, 19);
}
