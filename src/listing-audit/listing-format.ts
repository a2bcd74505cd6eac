import { fail, Finding } from './audit-finding';
import { AuditFormat } from './audit-format';
import { checkRecord, optional, required } from './field-rules';
import { isJsonObject, JsonValue } from './json-body';
import { checkMarketKeys, checkOrientation, compareMarketSets } from './market-name-checks';
import { MarketFigures, OrientationClaim } from './market-views';
import { keyedRecords, readBookRecord, readFigures, readTradeArray } from './record-readers';

/**
 * The exchange's own aggregator endpoints (its interface, 2.8 and 4.4): `/asset`, `/summary`,
 * `/ticker`, `/orderbook/{instrument}`, `/trades/{instrument}`; every value a string unless stated.
 */

const ASSET = [
  required('name', 'text'),
  optional('can_withdraw', 'boolean'),
  optional('can_deposit', 'boolean'),
  optional('min_withdraw', 'decimal'),
  optional('max_withdraw', 'decimal'),
];

const SUMMARY = [
  required('id', 'text'),
  required('last', 'decimal'),
  required('lowestAsk', 'decimal'),
  required('highestBid', 'decimal'),
  required('percentChange', 'signed-decimal'),
  required('baseVolume', 'decimal'),
  required('quoteVolume', 'decimal'),
  required('isFrozen', 'flag-text'),
  required('high24hr', 'decimal'),
  required('low24hr', 'decimal'),
];

const TICKER = [
  required('base_name', 'text'),
  required('quote_name', 'text'),
  required('last_price', 'decimal'),
  required('base_volume', 'decimal'),
  required('quote_volume', 'decimal'),
  required('isFrozen', 'flag-text'),
];

const BOOK = [required('timestamp', 'digits-text'), required('bids', 'array'), required('asks', 'array')];

const TRADE = [
  required('tradeID', 'digits-text'),
  required('price', 'decimal'),
  required('base_volume', 'decimal'),
  required('quote_volume', 'decimal'),
  required('trade_timestamp', 'digits-text'),
  required('type', 'side'),
];

const SUMMARY_FIGURES = { last: 'last', baseVolume: 'baseVolume', quoteVolume: 'quoteVolume' };

function summaryFigures(body: JsonValue): Map<string, MarketFigures> {
  const figures = new Map<string, MarketFigures>();
  for (const [key, record] of Object.entries(isJsonObject(body) ? body : {})) {
    const market = key.toUpperCase();
    const read = readFigures(record, SUMMARY_FIGURES, market, `/summary ${key}`);
    if (read) figures.set(market, read);
  }
  return figures;
}

/** The field rules of each record, by record: what the format's readers check. */
export const LISTING_RECORD_RULES = {
  asset: ASSET,
  summary: SUMMARY,
  ticker: TICKER,
  book: BOOK,
  trade: TRADE,
};

export const LISTING_FORMAT: AuditFormat = {
  name: 'listing',
  gzipRequired: false,
  tradesOnlyLast24h: true,
  lists: [
    { path: '/summary', mandatory: true },
    { path: '/ticker', mandatory: true },
    { path: '/asset', mandatory: false },
  ],
  figuresPath: '/summary',

  readLists(bodies) {
    const findings: Finding[] = [];
    const summary = keyedRecords(bodies.get('/summary'), '/summary', findings);
    const ticker = keyedRecords(bodies.get('/ticker'), '/ticker', findings);
    const asset = keyedRecords(bodies.get('/asset'), '/asset', findings);
    for (const [key, record] of Object.entries(summary))
      findings.push(...checkRecord(record, SUMMARY, `/summary ${key}`));
    for (const [key, record] of Object.entries(ticker))
      findings.push(...checkRecord(record, TICKER, `/ticker ${key}`));
    for (const [key, record] of Object.entries(asset))
      findings.push(...checkRecord(record, ASSET, `/asset ${key}`));
    const summaryKeys = checkMarketKeys(Object.keys(summary), '/summary', 'upper');
    const tickerKeys = checkMarketKeys(Object.keys(ticker), '/ticker', 'lower');
    findings.push(...summaryKeys.findings, ...tickerKeys.findings);
    for (const key of Object.keys(asset))
      if (!/^[A-Z0-9]+$/.test(key))
        findings.push(fail('market-keys', `/asset ${key}`, 'not an upper-case symbol'));
    if (bodies.has('/summary') && bodies.has('/ticker'))
      findings.push(
        ...compareMarketSets(summaryKeys.markets, '/summary', tickerKeys.markets, '/ticker', 'fail'),
        ...compareMarketSets(tickerKeys.markets, '/ticker', summaryKeys.markets, '/summary', 'fail'),
      );
    const names = new Map<string, string>();
    for (const [symbol, record] of Object.entries(asset))
      if (isJsonObject(record) && typeof record.name === 'string')
        names.set(symbol.toUpperCase(), record.name);
    const claims: OrientationClaim[] = Object.entries(ticker)
      .filter(([, record]) => isJsonObject(record))
      .map(([key, record]) => {
        const fields = record as Record<string, JsonValue>;
        return {
          where: `/ticker ${key}`,
          key,
          base: fields.base_name,
          quote: fields.quote_name,
          byName: true,
        };
      });
    findings.push(...checkOrientation(claims, names));
    const figures = summaryFigures(bodies.get('/summary') ?? {});
    const markets = [...figures.keys()]
      .filter((market) => summaryKeys.markets.includes(market))
      .map((market) => ({ market, pathName: market.toLowerCase() }));
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
      { id: 'tradeID', baseVolume: 'base_volume', quoteVolume: 'quote_volume', time: 'trade_timestamp' },
      where,
    ),
};
