import type { SchemaObject } from '@nestjs/swagger';

/**
 * Building blocks of the response schemas: decimals as strings in plain notation, times and ids as
 * the formats write them. Patterns are ECMAScript regular expressions, as JSON Schema has them.
 */

/** Plain notation without a sign: no exponent, no leading zeros, trailing zeros kept. */
export const UNSIGNED_DECIMAL = '^(0|[1-9][0-9]*)(\\.[0-9]+)?$';
/** A percent with two decimals, negative when the price fell; never `-0.00`. */
export const PERCENT = '^(?!-0\\.00$)-?(0|[1-9][0-9]*)\\.[0-9]{2}$';
/** Decimal digits of an unsigned integer written as a string (ids, Unix milliseconds). */
export const DIGITS = '^(0|[1-9][0-9]*)$';

export function decimal(description: string, example: string): SchemaObject {
  return { type: 'string', pattern: UNSIGNED_DECIMAL, description, example };
}

const LAST_TRADE = 'price of the newest trade in 24 hours, else of the newest trade known before them';

/** The exchange's own last price (spec 2.8): of the 24-hour window only. */
export function listingLastPrice(example: string): SchemaObject {
  return decimal('price of the newest trade in 24 hours at the price scale, 0 without one', example);
}

/** The aggregators' last price, which they require: a market without a known trade is left out. */
export function aggregatorLastPrice(example: string, asset = 'the quote asset'): SchemaObject {
  return decimal(
    `${LAST_TRADE}, in ${asset} at the price scale; markets without a known trade are not listed`,
    example,
  );
}

export function percentChange(description: string, example: string): SchemaObject {
  return { type: 'string', pattern: PERCENT, description, example };
}

export function unixMs(description: string, example: number): SchemaObject {
  return {
    type: 'integer',
    format: 'int64',
    minimum: 0,
    description: `${description}, Unix milliseconds`,
    example,
  };
}

export function unixMsText(description: string, example: string): SchemaObject {
  return {
    type: 'string',
    pattern: DIGITS,
    description: `${description}, Unix milliseconds as a string`,
    example,
  };
}

/** The exchange's integer trade id, as the aggregators' formats write it: a JSON integer with every digit. */
export function tradeId(example: number): SchemaObject {
  return {
    type: 'integer',
    format: 'int64',
    minimum: 0,
    description: "the exchange's trade id, every digit written",
    example,
  };
}

export function text(description: string, example: string, pattern?: string): SchemaObject {
  return pattern === undefined
    ? { type: 'string', description, example }
    : { type: 'string', pattern, description, example };
}

/** An asset symbol as the aggregator formats write it. */
export const UPPER_SYMBOL = '^[A-Z0-9]+$';
/** A market as `BASE_QUOTE`. */
export const UPPER_PAIR = '^[A-Z0-9]+_[A-Z0-9]+$';
/** A market as the exchange writes it, `base_quote`. */
export const LOWER_PAIR = '^[a-z0-9]+_[a-z0-9]+$';

export const TAKER_SIDE: SchemaObject = {
  type: 'string',
  enum: ['buy', 'sell'],
  description: 'the taker side: buy when an ask was taken from the book, sell when a bid was',
  example: 'buy',
};

/** `[price, amount]` at the market's price and amount scales. */
export function bookEntries(order: 'descending' | 'ascending'): SchemaObject {
  return {
    type: 'array',
    description: `[price, amount] levels, strictly ${order} by price; price at the market's price scale, amount in the base asset at its amount scale`,
    items: {
      type: 'array',
      minItems: 2,
      maxItems: 2,
      items: { type: 'string', pattern: UNSIGNED_DECIMAL },
      example: ['65000.00', '0.35000000'],
    },
  };
}

/** An object keyed by market or asset, every value a `$ref`. */
export function keyedBy(
  description: string,
  keyPattern: string,
  schema: string,
  example: object,
): SchemaObject {
  return {
    type: 'object',
    description: `${description} (keys match ${keyPattern})`,
    additionalProperties: { $ref: `#/components/schemas/${schema}` },
    example,
  };
}
