/** `YYYY-MM-DDThh:mm:ss`, then optionally up to nine fraction digits and a `Z`. */
const EXCHANGE_DATE_TEXT = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?Z?$/;

const SECOND_MS = 1000;
const DAY_MS = 86_400 * SECOND_MS;

/** UTC text with a trailing Z, e.g. `2019-03-13T09:00:00Z`; milliseconds only when there are any. */
export function formatExchangeDate(unixMs: number): string {
  return new Date(unixMs).toISOString().replace(/\.000Z$/, 'Z');
}

/**
 * Unix milliseconds of an exchange date read as UTC, with or without its `Z`; undefined for other
 * text or a date no calendar has (2023-02-29, 24:00:00). A fraction finer than a millisecond is
 * dropped, or with `roundUp` counts as the next millisecond: a range bound then keeps exactly the
 * whole-millisecond instants of its range.
 */
export function parseExchangeDate(text: string, roundUp = false): number | undefined {
  const match = EXCHANGE_DATE_TEXT.exec(text);
  if (match === null) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const fraction = match[7] ?? '';
  const finerThanMs = roundUp && /[1-9]/.test(fraction.slice(3)) ? 1 : 0;
  const ms = Number(fraction.slice(0, 3).padEnd(3, '0')) + finerThanMs;
  return (
    daysSinceUnixEpoch(year, month, day) * DAY_MS + ((hour * 60 + minute) * 60 + second) * SECOND_MS + ms
  );
}

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Days from 1970-01-01 to a proleptic Gregorian date; counting years from March puts the leap day last. */
function daysSinceUnixEpoch(year: number, month: number, day: number): number {
  const marchYear = month > 2 ? year : year - 1;
  const era = Math.floor(marchYear / 400);
  const yearOfEra = marchYear - era * 400;
  const dayOfMarchYear = Math.floor((153 * ((month + 9) % 12) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfMarchYear;
  return era * 146_097 + dayOfEra - 719_468;
}
