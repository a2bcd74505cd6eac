import type { TObject } from '@sinclair/typebox';
import { CMC_SCHEMAS } from '../../src/api/cmc/cmc-schemas';
import { COINGECKO_SCHEMAS } from '../../src/api/coingecko/coingecko-schemas';
import { LISTING_SCHEMAS } from '../../src/api/listing/listing-schemas';
import { CMC_RECORD_RULES } from '../../src/listing-audit/cmc-format';
import { COINGECKO_RECORD_RULES } from '../../src/listing-audit/coingecko-format';
import { checkRecord, FieldRule } from '../../src/listing-audit/field-rules';
import { parseJsonBody } from '../../src/listing-audit/json-body';
import { LISTING_RECORD_RULES } from '../../src/listing-audit/listing-format';

/**
 * The listing audit judges any API by what the aggregators require, which is looser in places than
 * what the gateway promises; it reads the same records as the gateway's wire schemas describe. Each
 * rule must name a field of the schema (a required rule a required field), and the schema's own
 * example must pass the audit's reading, so that the two cannot drift apart.
 */
const PAIRS: [string, readonly FieldRule[], TObject][] = [
  ['listing asset', LISTING_RECORD_RULES.asset, LISTING_SCHEMAS.ListingAsset],
  ['listing summary', LISTING_RECORD_RULES.summary, LISTING_SCHEMAS.ListingSummary],
  ['listing ticker', LISTING_RECORD_RULES.ticker, LISTING_SCHEMAS.ListingTicker],
  ['listing book', LISTING_RECORD_RULES.book, LISTING_SCHEMAS.ListingOrderBook],
  ['listing trade', LISTING_RECORD_RULES.trade, LISTING_SCHEMAS.ListingTrade],
  ['cmc summary', CMC_RECORD_RULES.summary, CMC_SCHEMAS.CmcSummary],
  ['cmc asset', CMC_RECORD_RULES.asset, CMC_SCHEMAS.CmcAsset],
  ['cmc ticker', CMC_RECORD_RULES.ticker, CMC_SCHEMAS.CmcTicker],
  ['cmc book', CMC_RECORD_RULES.book, CMC_SCHEMAS.CmcOrderBook],
  ['cmc trade', CMC_RECORD_RULES.trade, CMC_SCHEMAS.CmcTrade],
  ['coingecko pair', COINGECKO_RECORD_RULES.pair, COINGECKO_SCHEMAS.CoingeckoPair],
  ['coingecko ticker', COINGECKO_RECORD_RULES.ticker, COINGECKO_SCHEMAS.CoingeckoTicker],
  ['coingecko book', COINGECKO_RECORD_RULES.book, COINGECKO_SCHEMAS.CoingeckoOrderBook],
  ['coingecko trade', COINGECKO_RECORD_RULES.trade, COINGECKO_SCHEMAS.CoingeckoTrade],
];

/** The schema's own example, else one made of its fields' examples. */
function exampleOf(schema: TObject): unknown {
  const own = (schema.examples as unknown[] | undefined)?.[0];
  if (own !== undefined) return own;
  return Object.fromEntries(
    Object.entries(schema.properties)
      .filter(([, property]) => Array.isArray(property.examples))
      .map(([key, property]) => [key, (property.examples as unknown[])[0]]),
  );
}

describe("the listing audit's field rules and the wire schemas", () => {
  it.each(PAIRS)(
    '%s: every rule names a field of the schema, a required rule a required field',
    (_, rules, schema) => {
      const fields = Object.keys(schema.properties);
      const required = schema.required ?? [];
      expect(rules.map((rule) => rule.key).filter((key) => !fields.includes(key))).toEqual([]);
      expect(
        rules.filter((rule) => rule.required && !required.includes(rule.key)).map((rule) => rule.key),
      ).toEqual([]);
    },
  );

  it.each(PAIRS)("%s: the schema's example passes the audit's reading", (name, rules, schema) => {
    // Read as the audit reads a body: numbers kept with their digits.
    const record = parseJsonBody(JSON.stringify(exampleOf(schema)));
    expect(checkRecord(record, rules, name)).toEqual([]);
  });
});
