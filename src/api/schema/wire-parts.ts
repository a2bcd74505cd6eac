import { SchemaOptions, Static, TLiteral, TSchema, Type } from '@sinclair/typebox';
import { JsonNumber, JsonNumberList } from '../../market/json-number';

/**
 * Building blocks of the wire schemas: decimals as strings in plain notation, times and ids as the
 * formats write them. Patterns are ECMAScript regular expressions, as JSON Schema has them; examples
 * are JSON Schema's `examples`, which OpenAPI 3.1 and AsyncAPI 3.0 both read.
 */

/** Plain notation without a sign: no exponent, no leading zeros, trailing zeros kept. */
export const UNSIGNED_DECIMAL = '^(0|[1-9][0-9]*)(\\.[0-9]+)?$';
/** A percent with two decimals, negative when the price fell; never `-0.00`. */
export const PERCENT = '^(?!-0\\.00$)-?(0|[1-9][0-9]*)\\.[0-9]{2}$';
/** Decimal digits of an unsigned integer written as a string (ids, Unix milliseconds). */
export const DIGITS = '^(0|[1-9][0-9]*)$';
/** An asset symbol as the aggregator formats write it. */
export const UPPER_SYMBOL = '^[A-Z0-9]+$';
/** A market as `BASE_QUOTE`. */
export const UPPER_PAIR = '^[A-Z0-9]+_[A-Z0-9]+$';
/** A market as the exchange writes it, `base_quote`. */
export const LOWER_PAIR = '^[a-z0-9]+_[a-z0-9]+$';

export function decimal(description: string, example: string) {
  return Type.String({ pattern: UNSIGNED_DECIMAL, description, examples: [example] });
}

const LAST_TRADE = 'price of the newest trade in 24 hours, else of the newest trade known before them';

/** The exchange's own last price (spec 2.8): of the 24-hour window only. */
export function listingLastPrice(example: string) {
  return decimal('price of the newest trade in 24 hours at the price scale, 0 without one', example);
}

/** The aggregators' last price, which they require: a market without a known trade is left out. */
export function aggregatorLastPrice(example: string, asset = 'the quote asset') {
  return decimal(
    `${LAST_TRADE}, in ${asset} at the price scale; markets without a known trade are not listed`,
    example,
  );
}

export function percentChange(description: string, example: string) {
  return Type.String({ pattern: PERCENT, description, examples: [example] });
}

export function unixMs(description: string, example: number) {
  return Type.Integer({
    format: 'int64',
    minimum: 0,
    description: `${description}, Unix milliseconds`,
    examples: [example],
  });
}

export function unixMsText(description: string, example: string) {
  return Type.String({
    pattern: DIGITS,
    description: `${description}, Unix milliseconds as a string`,
    examples: [example],
  });
}

/** The exchange's integer trade id, as the aggregators' formats write it: a JSON integer with every digit. */
export function tradeId(example: number) {
  return Type.Integer({
    format: 'int64',
    minimum: 0,
    description: "the exchange's trade id, every digit written",
    examples: [example],
  });
}

export function text(description: string, example: string, pattern?: string) {
  return pattern === undefined
    ? Type.String({ description, examples: [example] })
    : Type.String({ pattern, description, examples: [example] });
}

/** A string of a fixed set: one `const` per value, which TypeBox checks and types as the union. */
export function oneOfTexts<const T extends readonly string[]>(values: T, options: SchemaOptions = {}) {
  const literals = values.map((value) => Type.Literal(value));
  return Type.Union(literals as unknown as { -readonly [K in keyof T]: TLiteral<T[K]> }, options);
}

export const TAKER_SIDE = oneOfTexts(['buy', 'sell'], {
  description: 'the taker side: buy when an ask was taken from the book, sell when a bid was',
  examples: ['buy'],
});

/** Of two items; not a tuple, whose JSON Schema form differs between draft 7 and 2020-12. */
const LEVEL = Type.Array(Type.String({ pattern: UNSIGNED_DECIMAL }), {
  minItems: 2,
  maxItems: 2,
  examples: [['65000.00', '0.35000000']],
});

/** `[price, amount]` at the market's price and amount scales. */
export function bookEntries(order: 'descending' | 'ascending') {
  return Type.Array(LEVEL, {
    description: `[price, amount] levels, strictly ${order} by price; price at the market's price scale, amount in the base asset at its amount scale`,
  });
}

/** An object keyed by market or asset; every key matches `keyPattern`. */
export function keyedBy<T extends TSchema>(
  description: string,
  keyPattern: string,
  value: T,
  example: object,
) {
  return Type.Record(Type.String({ pattern: keyPattern }), value, {
    description: `${description} (keys match ${keyPattern})`,
    additionalProperties: false,
    examples: [example],
  });
}

/** `schema` or JSON null. */
export function nullable<T extends TSchema>(schema: T) {
  return Type.Union([schema, Type.Null()]);
}

/**
 * A record as the API builds it from a schema: every JSON number may be a JsonNumber, which the
 * body is written with every digit of (ids and exact decimals beyond a binary double), an array of
 * numbers a JsonNumberList, and arrays may be read-only.
 */
export type WireRecord<T extends TSchema> = WithExactNumbers<Static<T>>;
type WithExactNumbers<T> = T extends number
  ? T | JsonNumber
  : T extends number[]
    ? readonly (number | JsonNumber)[] | JsonNumberList
    : T extends (infer U)[]
      ? readonly WithExactNumbers<U>[]
      : T extends object
        ? { [K in keyof T]: WithExactNumbers<T[K]> }
        : T;
