/** `YYYY-MM-DDThh:mm:ss`, an optional fraction of a second and an optional `Z`: the exchange's UTC dates. */
const EXCHANGE_DATE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?Z?$/;

interface DateParts {
  readonly date: Date;
  readonly fraction: string;
}

function parts(text: string): DateParts | undefined {
  const match = EXCHANGE_DATE.exec(text);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number);
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return undefined;
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, keeps years 0-99 as they are.
  date.setUTCFullYear(year, month - 1, day);
  if (date.getUTCDate() !== day) return undefined;
  date.setUTCHours(hour, minute, second, 0);
  return { date, fraction: match[7] ?? '' };
}

/**
 * The exchange writes UTC dates with or without a trailing `Z` (`2019-11-14T16:18:49.253354` and
 * `2021-05-06T07:08:09Z` both occur). Returns the same instant with a `Z` and the fraction's digits
 * as sent, or undefined when the text is no such date or no real calendar instant.
 */
export function normalizeExchangeDate(text: string): string | undefined {
  if (!parts(text)) return undefined;
  return text.endsWith('Z') ? text : `${text}Z`;
}

/** Unix milliseconds of an exchange date, a fraction finer than a millisecond dropped. */
export function parseExchangeDate(text: string): number | undefined {
  const parsed = parts(text);
  if (!parsed) return undefined;
  return parsed.date.getTime() + Number(parsed.fraction.slice(1, 4).padEnd(3, '0'));
}

/** `YYYY-MM-DDThh:mm:ss` in UTC, the format of the exchange's query dates (whole seconds). */
export function formatQueryDate(unixMs: number): string {
  return new Date(unixMs).toISOString().slice(0, 19);
}
