import { ApiError } from './api-error';

/** How much of a client's value an error message repeats: enough to recognise it, never a flood. */
const ECHO_LENGTH = 64;
/** More levels than any book holds: a larger depth is a mistake, not a wish for the full book (0). */
export const MAX_DEPTH = 1_000_000;
const DIGITS = /^\d+$/;
const NEGATIVE = /^-\d+$/;

/** The client's value as an error message quotes it: JSON-quoted, cut at ECHO_LENGTH characters. */
export function echo(value: string): string {
  return value.length > ECHO_LENGTH
    ? `${JSON.stringify(value.slice(0, ECHO_LENGTH))}...`
    : JSON.stringify(value);
}

/**
 * The one text value of a query parameter; undefined when absent or empty (`?depth=` is `depth`
 * not given). A key given twice is a 400: which of the two the client meant is not ours to guess.
 */
export function singleParam(value: unknown, name: string): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value === 'string') return value;
  const count = Array.isArray(value) ? `, got ${value.length} values` : '';
  throw ApiError.badRequest(`invalid_${name}`, `${name} must be given once${count}`);
}

/**
 * A non-negative integer parameter up to `max`; `fallback` when absent; 400 naming the rule it broke.
 * `kind` says what the digits stand for, e.g. "a Unix time in milliseconds".
 */
export function integerParam(
  value: unknown,
  name: string,
  fallback: number,
  max: number,
  kind = 'a non-negative integer',
): number {
  const given = singleParam(value, name);
  if (given === undefined) return fallback;
  const invalid = (rule: string) =>
    ApiError.badRequest(`invalid_${name}`, `${name} ${rule}, got ${echo(given)}`);
  if (NEGATIVE.test(given)) throw invalid('must not be negative');
  if (!DIGITS.test(given)) throw invalid(`must be ${kind}, digits only`);
  const digits = withoutLeadingZeros(given);
  // Compared as text first: twenty digits are past Number's exact integers.
  if (digits.length > String(max).length || Number(digits) > max) throw invalid(`must be at most ${max}`);
  return Number(digits);
}

/** Aggregators' `depth`: 0 or absent for the full book, else an even N for N/2 levels per side. */
export function depthParam(value: unknown): number {
  const depth = integerParam(value, 'depth', 0, MAX_DEPTH);
  if (depth % 2 !== 0) {
    throw ApiError.badRequest(
      'invalid_depth',
      `depth must be even (N/2 levels per side) or 0 for the full book, got ${echo(String(depth))}`,
    );
  }
  return depth / 2;
}

/**
 * `level` among `levels`, each described for the message (e.g. `{ 1: 'best bid and ask', 2: 'every
 * price level' }`); `fallback` when absent.
 */
export function levelParam<L extends number>(
  value: unknown,
  levels: Readonly<Record<L, string>>,
  fallback: L,
): L {
  const given = singleParam(value, 'level');
  if (given === undefined) return fallback;
  const key = DIGITS.test(given) ? withoutLeadingZeros(given) : given;
  if (Object.prototype.hasOwnProperty.call(levels, key)) return Number(key) as L;
  const allowed = Object.entries(levels).map(([level, meaning]) => `${level} (${meaning as string})`);
  const list = `${allowed.slice(0, -1).join(', ')} or ${allowed[allowed.length - 1]}`;
  throw ApiError.badRequest('invalid_level', `level must be ${list}, got ${echo(given)}`);
}

function withoutLeadingZeros(digits: string): string {
  return digits.replace(/^0+(?=\d)/, '');
}

/** The exchange's own levels: 1 for the best bid and ask, 2 (the default) for every price level. */
const BOOK_LEVELS = { 1: 'best bid and ask', 2: 'every price level' } as const;

export function bookLevelParam(value: unknown): 1 | 2 {
  return levelParam<1 | 2>(value, BOOK_LEVELS, 2);
}
