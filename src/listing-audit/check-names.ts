/**
 * The audit's checks, in report order, each with what it holds an endpoint to. The names are stable:
 * scripts and tests match on them.
 */
export const CHECKS = {
  'endpoints-answer': 'every endpoint answers 200 without authentication within the time bound',
  'json-content': 'every answer is JSON: an application/json content type and a body that parses',
  gzip: 'a request with Accept-Encoding: gzip is answered gzip-compressed (bodies of 1 KiB or more)',
  'freshness-headers':
    'Date near the local clock, Cache-Control max-age at most 60 s, Last-Modified not in the future',
  'required-fields': 'every mandatory field is present',
  'key-case': 'field names in the letter case the format gives (isFrozen, trade_timestamp)',
  'decimal-strings': 'decimals are strings in plain notation: no JSON numbers, no exponent, no sign, no null',
  'field-types': 'ids, times, flags, sides and symbols have the type and form the format gives',
  'market-keys': 'markets written BASE_QUOTE in the letter case of the format, the same set on every list',
  'base-quote-orientation': "each market's base and quote fields agree with its BASE_QUOTE name",
  'price-vs-book': 'the last price lies near the order book, not near its inverse (a swapped pair)',
  'book-order': 'bids strictly descending, asks strictly ascending by price',
  'book-uncrossed': 'the best bid is below the best ask',
  'book-amounts': 'no level with a zero or negative price or amount',
  'book-fresh': 'the book timestamp is Unix milliseconds, not in the future, not older than the newest trade',
  'trades-window': 'trades carry Unix-millisecond times within the last 24 hours',
  'trade-ids': 'trade ids are unique within a market',
  'trade-quote-volume': "each trade's quote volume is price x base volume, to the rounding of its digits",
  'volumes-match-trades': '24-hour base and quote volumes equal the sums of the trades served',
  'polls-consistent':
    'a later poll moves forward: no volume drop beyond aged-out trades, no trade lost, no book going back',
} as const;

export type CheckName = keyof typeof CHECKS;

export const CHECK_NAMES = Object.keys(CHECKS) as CheckName[];
