import { fail, Finding } from './audit-finding';
import { AuditFormat } from './audit-format';
import { checkRecord, optional, required } from './field-rules';
import { isJsonObject, JsonValue } from './json-body';
import { canonicalMarket, checkMarketKeys, checkOrientation, compareMarketSets } from './market-name-checks';
import { MarketFigures, MarketRef, OrientationClaim } from './market-views';
import { readBookRecord, readFigures, readTradeList } from './record-readers';

/**
 * CoinGecko's spot endpoints ("Integration Ideal API Endpoints"): `/pairs`, `/tickers`,
 * `/orderbook?ticker_id=&depth=`, `/historical_trades?ticker_id=`. The quote asset is the `target`.
 */

const PAIR = [required('ticker_id', 'text'), required('base', 'symbol'), required('target', 'symbol')];

const TICKER = [
  required('ticker_id', 'text'),
  required('base_currency', 'symbol'),
  required('target_currency', 'symbol'),
  required('last_price', 'decimal'),
  required('base_volume', 'decimal'),
  required('target_volume', 'decimal'),
  // Mandatory in the older text of the standard, recommended in the newer.
  optional('bid', 'decimal'),
  optional('ask', 'decimal'),
  optional('high', 'decimal'),
  optional('low', 'decimal'),
];

const BOOK = [
  required('ticker_id', 'text'),
  optional('timestamp', 'unix-ms'),
  required('bids', 'array'),
  required('asks', 'array'),
];

const TRADE = [
  required('trade_id', 'integer'),
  required('price', 'decimal'),
  required('base_volume', 'decimal'),
  required('target_volume', 'decimal'),
  required('trade_timestamp', 'unix-ms'),
  required('type', 'side'),
];

const FIGURES = { last: 'last_price', baseVolume: 'base_volume', quoteVolume: 'target_volume' };

function records(body: JsonValue | undefined, where: string, findings: Finding[]): JsonValue[] {
  if (body === undefined) return [];
  if (Array.isArray(body)) return body;
  findings.push(fail('field-types', where, 'expected an array of markets'));
  return [];
}

function tickerIdOf(record: JsonValue): string | undefined {
  return isJsonObject(record) && typeof record.ticker_id === 'string' ? record.ticker_id : undefined;
}

function tickerFigures(body: JsonValue): Map<string, MarketFigures> {
  const figures = new Map<string, MarketFigures>();
  for (const record of Array.isArray(body) ? body : []) {
    const id = tickerIdOf(record);
    if (id === undefined) continue;
    const read = readFigures(record, FIGURES, canonicalMarket(id), `/tickers ${id}`);
    if (read) figures.set(read.market, read);
  }
  return figures;
}

function claims(list: JsonValue[], where: string, base: string, quote: string): OrientationClaim[] {
  return list.filter(isJsonObject).map((record) => ({
    where: `${where} ${String(record.ticker_id)}`,
    key: String(record.ticker_id),
    base: record[base],
    quote: record[quote],
  }));
}

/** The field rules of each record, by record: what the format's readers check. */
export const COINGECKO_RECORD_RULES = { pair: PAIR, ticker: TICKER, book: BOOK, trade: TRADE };

export const COINGECKO_FORMAT: AuditFormat = {
  name: 'coingecko',
  gzipRequired: false,
  // The standard's historical trades may reach past 24 hours; the volume check keeps the 24 hours.
  tradesOnlyLast24h: false,
  lists: [
    { path: '/pairs', mandatory: true },
    { path: '/tickers', mandatory: true },
  ],
  figuresPath: '/tickers',

  readLists(bodies) {
    const findings: Finding[] = [];
    const pairs = records(bodies.get('/pairs'), '/pairs', findings);
    const tickers = records(bodies.get('/tickers'), '/tickers', findings);
    pairs.forEach((record, index) =>
      findings.push(...checkRecord(record, PAIR, `/pairs ${tickerIdOf(record) ?? `[${index}]`}`)),
    );
    tickers.forEach((record, index) =>
      findings.push(...checkRecord(record, TICKER, `/tickers ${tickerIdOf(record) ?? `[${index}]`}`)),
    );
    const pairIds = pairs.map(tickerIdOf).filter((id) => id !== undefined);
    const tickerIds = tickers.map(tickerIdOf).filter((id) => id !== undefined);
    const pairKeys = checkMarketKeys(pairIds, '/pairs', 'any');
    const tickerKeys = checkMarketKeys(tickerIds, '/tickers', 'any');
    findings.push(...pairKeys.findings, ...tickerKeys.findings);
    if (bodies.has('/pairs') && bodies.has('/tickers'))
      findings.push(
        ...compareMarketSets(tickerKeys.markets, '/tickers', pairKeys.markets, '/pairs', 'fail'),
        // A pair without a price yet may be left out of the tickers.
        ...compareMarketSets(pairKeys.markets, '/pairs', tickerKeys.markets, '/tickers', 'warn'),
      );
    findings.push(
      ...checkOrientation([
        ...claims(pairs, '/pairs', 'base', 'target'),
        ...claims(tickers, '/tickers', 'base_currency', 'target_currency'),
      ]),
    );
    const figures = tickerFigures(bodies.get('/tickers') ?? []);
    const markets: MarketRef[] = tickerIds
      .filter((id) => figures.has(canonicalMarket(id)))
      .map((id) => ({ market: canonicalMarket(id), pathName: id }));
    return { findings, markets, figures };
  },

  readFigures: tickerFigures,
  bookPath: (market) => `/orderbook?ticker_id=${encodeURIComponent(market.pathName)}&depth=0`,
  tradesPath: (market) => `/historical_trades?ticker_id=${encodeURIComponent(market.pathName)}`,

  readBook(body, market, where) {
    const read = readBookRecord(body, BOOK, market.market, where);
    const id = isJsonObject(body) ? body.ticker_id : undefined;
    if (typeof id === 'string' && canonicalMarket(id) !== market.market)
      read.findings.push(
        fail('base-quote-orientation', `${where}.ticker_id`, `"${id}" for ${market.pathName}`),
      );
    return read;
  },

  readTrades(body, _market, where) {
    const keys = {
      id: 'trade_id',
      baseVolume: 'base_volume',
      quoteVolume: 'target_volume',
      time: 'trade_timestamp',
    };
    // The standard's sample splits trades into `buy` and `sell` lists; some exchanges send one flat list.
    if (Array.isArray(body)) return readTradeList(body, TRADE, keys, where);
    if (!isJsonObject(body))
      return {
        findings: [fail('field-types', where, 'expected { buy: [...], sell: [...] } or an array of trades')],
      };
    const findings = checkRecord(body, [required('buy', 'array'), required('sell', 'array')], where);
    const buy = readTradeList(Array.isArray(body.buy) ? body.buy : [], TRADE, keys, `${where}.buy`);
    const sell = readTradeList(Array.isArray(body.sell) ? body.sell : [], TRADE, keys, `${where}.sell`);
    return {
      findings: [...findings, ...buy.findings, ...sell.findings],
      value: [...(buy.value ?? []), ...(sell.value ?? [])],
    };
  },
};
