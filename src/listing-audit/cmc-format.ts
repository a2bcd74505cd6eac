import { fail, Finding } from './audit-finding';
import { AuditFormat } from './audit-format';
import { checkRecord, optional, required } from './field-rules';
import { isJsonObject, JsonValue } from './json-body';
import { canonicalMarket, checkMarketKeys, checkOrientation, compareMarketSets } from './market-name-checks';
import { MarketFigures, MarketRef } from './market-views';
import { keyedRecords, readBookRecord, readFigures, readTradeArray } from './record-readers';

/**
 * CoinMarketCap's spot endpoints ("Ideal API Endpoint Samples"): `/summary` (an array), `/assets`,
 * `/ticker`, `/orderbook/{market_pair}`, `/trades/{market_pair}`. Decimals are strings; ids and
 * times integers. CoinMarketCap treats every endpoint as mandatory and requires gzip.
 */

const SUMMARY = [
  required('trading_pairs', 'text'),
  optional('base_currency', 'symbol'),
  optional('quote_currency', 'symbol'),
  required('last_price', 'decimal'),
  required('lowest_ask', 'decimal'),
  required('highest_bid', 'decimal'),
  required('base_volume', 'decimal'),
  required('quote_volume', 'decimal'),
  required('price_change_percent_24h', 'signed-decimal'),
  required('highest_price_24h', 'decimal'),
  required('lowest_price_24h', 'decimal'),
];

const ASSET = [
  optional('name', 'text'),
  optional('unified_cryptoasset_id', 'integer'),
  optional('can_withdraw', 'boolean'),
  optional('can_deposit', 'boolean'),
  optional('min_withdraw', 'decimal'),
  optional('max_withdraw', 'decimal'),
  optional('maker_fee', 'decimal'),
  optional('taker_fee', 'decimal'),
];

const TICKER = [
  optional('base_id', 'integer'),
  optional('quote_id', 'integer'),
  required('last_price', 'decimal'),
  required('base_volume', 'decimal'),
  required('quote_volume', 'decimal'),
  optional('isFrozen', 'flag-integer'),
];

const BOOK = [required('timestamp', 'unix-ms'), required('bids', 'array'), required('asks', 'array')];

const TRADE = [
  required('trade_id', 'integer'),
  required('price', 'decimal'),
  required('base_volume', 'decimal'),
  required('quote_volume', 'decimal'),
  required('timestamp', 'unix-ms'),
  required('type', 'side'),
];

const FIGURES = { last: 'last_price', baseVolume: 'base_volume', quoteVolume: 'quote_volume' };

function summaryRecords(body: JsonValue | undefined): JsonValue[] {
  return Array.isArray(body) ? body : [];
}

function pairOf(record: JsonValue): string | undefined {
  return isJsonObject(record) && typeof record.trading_pairs === 'string' ? record.trading_pairs : undefined;
}

function summaryFigures(body: JsonValue): Map<string, MarketFigures> {
  const figures = new Map<string, MarketFigures>();
  for (const record of summaryRecords(body)) {
    const pair = pairOf(record);
    if (pair === undefined) continue;
    const read = readFigures(record, FIGURES, canonicalMarket(pair), `/summary ${pair}`);
    if (read) figures.set(read.market, read);
  }
  return figures;
}

/** The field rules of each record, by record: what the format's readers check. */
export const CMC_RECORD_RULES = { summary: SUMMARY, asset: ASSET, ticker: TICKER, book: BOOK, trade: TRADE };

export const CMC_FORMAT: AuditFormat = {
  name: 'cmc',
  gzipRequired: true,
  tradesOnlyLast24h: true,
  lists: [
    { path: '/summary', mandatory: true },
    { path: '/ticker', mandatory: true },
    { path: '/assets', mandatory: true },
  ],
  figuresPath: '/summary',

  readLists(bodies) {
    const findings: Finding[] = [];
    const summaryBody = bodies.get('/summary');
    if (summaryBody !== undefined && !Array.isArray(summaryBody))
      findings.push(fail('field-types', '/summary', 'expected an array of markets'));
    const summary = summaryRecords(summaryBody);
    summary.forEach((record, index) =>
      findings.push(...checkRecord(record, SUMMARY, `/summary ${pairOf(record) ?? `[${index}]`}`)),
    );
    const ticker = keyedRecords(bodies.get('/ticker'), '/ticker', findings);
    const assets = keyedRecords(bodies.get('/assets'), '/assets', findings);
    for (const [key, record] of Object.entries(ticker))
      findings.push(...checkRecord(record, TICKER, `/ticker ${key}`));
    for (const [key, record] of Object.entries(assets))
      findings.push(...checkRecord(record, ASSET, `/assets ${key}`));
    for (const key of Object.keys(assets))
      if (!/^[A-Z0-9]+$/.test(key))
        findings.push(fail('market-keys', `/assets ${key}`, 'not an upper-case symbol'));
    const pairs = summary.map(pairOf).filter((pair) => pair !== undefined);
    const summaryKeys = checkMarketKeys(pairs, '/summary', 'any');
    const tickerKeys = checkMarketKeys(Object.keys(ticker), '/ticker', 'any');
    findings.push(...summaryKeys.findings, ...tickerKeys.findings);
    if (summaryBody !== undefined && bodies.has('/ticker'))
      findings.push(
        ...compareMarketSets(summaryKeys.markets, '/summary', tickerKeys.markets, '/ticker', 'fail'),
        ...compareMarketSets(tickerKeys.markets, '/ticker', summaryKeys.markets, '/summary', 'fail'),
      );
    findings.push(
      ...checkOrientation(
        summary.filter(isJsonObject).map((record) => ({
          where: `/summary ${String(record.trading_pairs)}`,
          key: String(record.trading_pairs),
          base: record.base_currency,
          quote: record.quote_currency,
        })),
      ),
    );
    const figures = summaryFigures(summaryBody ?? []);
    const markets: MarketRef[] = pairs
      .filter((pair) => figures.has(canonicalMarket(pair)))
      .map((pair) => ({ market: canonicalMarket(pair), pathName: pair }));
    return { findings, markets, figures };
  },

  readFigures: summaryFigures,
  bookPath: (market) => `/orderbook/${market.pathName}`,
  tradesPath: (market) => `/trades/${market.pathName}`,

  readBook: (body, market, where) => readBookRecord(body, BOOK, market.market, where),

  readTrades: (body, _market, where) =>
    readTradeArray(
      body,
      TRADE,
      { id: 'trade_id', baseVolume: 'base_volume', quoteVolume: 'quote_volume', time: 'timestamp' },
      where,
    ),
};
