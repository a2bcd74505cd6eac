import BigConstructor, { Big } from 'big.js';

/**
 * Exact decimal arithmetic for market data.
 *
 * Upstream numbers reach the domain as the exact text of the JSON number, never as a binary float.
 * `Decimal` is big.js configured so that no operation rounds silently below 40 decimal places and no
 * rendering ever uses exponent notation.
 */
export const Decimal = BigConstructor();
Decimal.DP = 40;
Decimal.RM = BigConstructor.roundHalfUp;
Decimal.NE = -1_000_000;
Decimal.PE = 1_000_000;
Decimal.strict = true;

export type DecimalValue = Big;

export const ZERO: DecimalValue = new Decimal('0');

export class InvalidDecimalError extends Error {
  constructor(readonly text: unknown) {
    super(`not a decimal number: ${JSON.stringify(text)}`);
    this.name = 'InvalidDecimalError';
  }
}

/** Plain notation with any zeros: sign, integer digits, fraction digits ("007.50", "1.", ".5"). */
const PLAIN = /^(-?)(\d*)(?:\.(\d*))?$/;
const DECIMAL_TEXT = /^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const LEADING_ZEROS = /^0+/;
const TRAILING_ZEROS = /0+$/;

/**
 * The canonical text of a non-negative decimal (plain notation, no leading or trailing zeros),
 * so that equal values always have equal text. Accepts exponent notation and trailing zeros.
 * Plain notation is trimmed as text; only exponent notation needs decimal arithmetic.
 */
export function canonicalDecimal(text: string): string {
  const canonical = plainCanonicalDecimal(text);
  if (canonical !== undefined) return canonical;
  const plain = PLAIN.exec(text);
  if (plain !== null && (plain[2] !== '' || (plain[3] ?? '') !== '')) {
    const integer = plain[2].replace(LEADING_ZEROS, '') || '0';
    const fraction = (plain[3] ?? '').replace(TRAILING_ZEROS, '');
    const canonical = fraction === '' ? integer : `${integer}.${fraction}`;
    if (plain[1] === '-' && canonical !== '0') throw new InvalidDecimalError(text);
    return canonical;
  }
  if (!DECIMAL_TEXT.test(text)) throw new InvalidDecimalError(text);
  const value = new Decimal(text);
  if (value.s < 0 && !value.eq(ZERO)) throw new InvalidDecimalError(text);
  return value.abs().toFixed();
}

const ZERO_CODE = 0x30;
const NINE_CODE = 0x39;
const POINT_CODE = 0x2e;

/**
 * The canonical text of a decimal written as JSON writes a non-negative number in plain notation,
 * `(0|[1-9][0-9]*)(.[0-9]+)?`, which only its fraction's trailing zeros can keep from being canonical
 * (so it is the text itself, or a slice of it); undefined for any other text. The common case of
 * `canonicalDecimal`, in one pass and without a regular expression.
 */
export function plainCanonicalDecimal(text: string): string | undefined {
  const length = text.length;
  let code = text.charCodeAt(0);
  let at = 1;
  if (code !== ZERO_CODE) {
    if (!(code > ZERO_CODE && code <= NINE_CODE)) return undefined;
    while (at < length && (code = text.charCodeAt(at)) >= ZERO_CODE && code <= NINE_CODE) at++;
  }
  if (at === length) return text;
  if (text.charCodeAt(at) !== POINT_CODE || at + 1 === length) return undefined;
  let end = at;
  for (at++; at < length; at++) {
    code = text.charCodeAt(at);
    if (code < ZERO_CODE || code > NINE_CODE) return undefined;
    if (code !== ZERO_CODE) end = at + 1;
  }
  return end === length ? text : text.slice(0, end);
}

export function toDecimal(text: string): DecimalValue {
  if (!DECIMAL_TEXT.test(text)) throw new InvalidDecimalError(text);
  return new Decimal(text);
}

/** Fixed-scale plain text, rounded half away from zero, trailing zeros kept, never "-0". */
export function formatFixed(value: DecimalValue, scale: number): string {
  const text = value.toFixed(scale, BigConstructor.roundHalfUp);
  return text.charCodeAt(0) === 45 /* - */ && /^-0(\.0*)?$/.test(text) ? text.slice(1) : text;
}

/**
 * Canonical decimal text at a fixed scale, as `formatFixed` would render it. Most values already
 * have no more decimals than the scale, so they are padded without arithmetic; the others are rounded
 * half away from zero.
 */
export function toFixedScale(canonical: string, scale: number): string {
  const point = canonical.indexOf('.');
  const decimals = point < 0 ? 0 : canonical.length - point - 1;
  if (decimals > scale) return formatFixed(new Decimal(canonical), scale);
  if (scale === 0) return canonical;
  return (point < 0 ? `${canonical}.` : canonical) + '0'.repeat(scale - decimals);
}

/**
 * Exact order of two canonical non-negative decimal texts.
 * Compares the integer parts by length, then digit by digit, then the fractions.
 */
export function compareCanonical(a: string, b: string): number {
  if (a === b) return 0;
  const pointA = a.indexOf('.');
  const pointB = b.indexOf('.');
  const intA = pointA < 0 ? a.length : pointA;
  const intB = pointB < 0 ? b.length : pointB;
  if (intA !== intB) return intA < intB ? -1 : 1;
  // Same integer length: plain string order decides, with a missing fraction sorting first.
  return a < b ? -1 : 1;
}
