/** `YYYY-MM-DDThh:mm:ss`, optionally with a fraction of a second and a trailing `Z`; always UTC. */
const EXCHANGE_DATE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?Z?$/;

/**
 * Parses a date of the exchange's REST queries into Unix milliseconds. A fraction finer than a
 * millisecond rounds up, so that a half-open range [start, end) of such dates selects exactly the
 * whole-millisecond instants it contains. Returns undefined for text that is not such a date or
 * names no real calendar instant (2024-02-30, 24:00:00).
 */
export function parseExchangeDate(text: string): number | undefined {
  const match = EXCHANGE_DATE.exec(text);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number);
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return undefined;
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, does not move years 0-99 into the 1900s.
  date.setUTCFullYear(year, month - 1, day);
  if (date.getUTCDate() !== day) return undefined;
  date.setUTCHours(hour, minute, second, 0);
  const fraction = (match[7] ?? '').padEnd(9, '0');
  const nanoseconds = Number(fraction);
  return date.getTime() + Math.ceil(nanoseconds / 1_000_000);
}

/** UTC text with a trailing Z, e.g. `2019-03-13T09:00:00Z`; milliseconds only when there are any. */
export function formatExchangeDate(unixMs: number): string {
  const iso = new Date(unixMs).toISOString();
  return iso.endsWith('.000Z') ? `${iso.slice(0, -5)}Z` : iso;
}
