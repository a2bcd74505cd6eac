import Big from 'big.js';
import request from 'supertest';
import { TestStack } from '../support/start-test-stack';
import { Truth } from '../support/truth';
import {
  expectedFigures,
  fixed,
  FROZEN,
  HIDDEN,
  LISTED,
  NEVER_TRADED,
  PRICED,
  PERCENT,
  PLAIN,
  expectBestFirst,
  renderLevels,
  Scales,
  closeSettledStack,
  startSettledStack,
} from './expected-figures';

const upper = (instrument: string) => instrument.toUpperCase();

describe('CoinMarketCap endpoints over a gateway fed by the sandbox', () => {
  let stack: TestStack;
  let scales: Map<string, Scales>;
  let truths: Map<string, Truth>;

  beforeAll(async () => {
    ({ stack, truths, scales } = await startSettledStack());
  });
  afterAll(() => closeSettledStack(stack));

  const get = (path: string) => request(stack.app.url).get(path);
  const want = (instrument: string) =>
    expectedFigures(truths.get(instrument)!, scales.get(instrument)!, Date.now());

  it('/cmc/summary is an array of every visible market with a last price, sorted, with the truth figures', async () => {
    const response = await get('/cmc/summary').expect(200).expect('content-type', /json/);
    expect(Array.isArray(response.body)).toBe(true);
    expect(response.body.map((record: { trading_pairs: string }) => record.trading_pairs)).toEqual(
      PRICED.map(upper),
    );
    for (const record of response.body as Record<string, string>[]) {
      const instrument = record.trading_pairs.toLowerCase();
      const [base, quote] = record.trading_pairs.split('_');
      const figures = want(instrument);
      expect(record).toEqual({
        trading_pairs: upper(instrument),
        base_currency: base,
        quote_currency: quote,
        last_price: figures.lastTraded,
        lowest_ask: figures.bestAsk,
        highest_bid: figures.bestBid,
        base_volume: figures.baseVolume,
        quote_volume: figures.quoteVolume,
        price_change_percent_24h: figures.percentChange,
        highest_price_24h: figures.high,
        lowest_price_24h: figures.low,
      });
      for (const [field, value] of Object.entries(record)) {
        if (field === 'price_change_percent_24h') expect(value).toMatch(PERCENT);
        else if (!field.endsWith('currency') && field !== 'trading_pairs') expect(value).toMatch(PLAIN);
      }
      expect(record.price_change_percent_24h).not.toBe('-0.00');
    }
  });

  it('/cmc/summary writes every price of pepe_eth with 18 decimals and leaves out the markets that never traded', async () => {
    const records = (await get('/cmc/summary').expect(200)).body as Record<string, string>[];
    const pepe = records.find((record) => record.trading_pairs === 'PEPE_ETH')!;
    for (const field of ['last_price', 'lowest_ask', 'highest_bid', 'quote_volume', 'highest_price_24h']) {
      expect(pepe[field]).toMatch(/^\d+\.\d{18}$/);
    }
    expect(pepe.base_volume).toMatch(/^\d+\.\d{18}$/);
    for (const instrument of NEVER_TRADED) {
      expect(want(instrument).window).toHaveLength(0);
      expect(records.find((record) => record.trading_pairs === upper(instrument))).toBeUndefined();
    }
    expect(records.every((record) => !/^0(\.0+)?$/.test(record.last_price))).toBe(true);
  });

  // The integer 1 of a halted market with a last price: test/api/last-price.e2e-spec.ts.
  it('/cmc/ticker is keyed by upper-case BASE_QUOTE, isFrozen an integer, no unknown UCIDs', async () => {
    const response = await get('/cmc/ticker').expect(200);
    expect(Object.keys(response.body)).toEqual(PRICED.map(upper));
    for (const instrument of PRICED) {
      const figures = want(instrument);
      expect(response.body[upper(instrument)]).toEqual({
        last_price: figures.lastTraded,
        base_volume: figures.baseVolume,
        quote_volume: figures.quoteVolume,
        isFrozen: FROZEN.has(instrument) ? 1 : 0,
      });
    }
    expect(response.text).toMatch(/"isFrozen":0[,}]/);
    expect(response.text).not.toMatch(/"isFrozen":"/);
  });

  it('/cmc/assets lists the assets of the visible markets, without fields nobody stated, as /asset does', async () => {
    const [cmc, listing] = await Promise.all([get('/cmc/assets').expect(200), get('/asset').expect(200)]);
    const traded = new Set(LISTED.flatMap((instrument) => upper(instrument).split('_')));
    expect(Object.keys(cmc.body).sort()).toEqual([...traded].sort());
    expect(cmc.body).not.toHaveProperty('DOGE');
    // Without ASSETS_FILE: no UCID, terms or fees, only the name (test/ingest/assets-file covers the file).
    for (const [symbol, asset] of Object.entries(cmc.body as Record<string, Record<string, unknown>>)) {
      expect(Object.keys(asset)).toEqual(['name']);
      expect(typeof asset.name).toBe('string');
      expect(asset).toEqual(listing.body[symbol]);
    }
  });

  it('/cmc/orderbook gives the truth book, bids descending, asks ascending, timestamp in milliseconds', async () => {
    for (const instrument of LISTED) {
      const truth = truths.get(instrument)!;
      const response = await get(`/cmc/orderbook/${upper(instrument)}`).expect(200);
      expect(Object.keys(response.body)).toEqual(['timestamp', 'bids', 'asks']);
      expect(Number.isInteger(response.body.timestamp)).toBe(true);
      expect(String(response.body.timestamp)).toMatch(/^\d{13}$/);
      expect(Math.abs(response.body.timestamp - Date.now())).toBeLessThan(10 * 60_000);
      expect(response.body.bids).toEqual(renderLevels(truth.bids, scales.get(instrument)!));
      expect(response.body.asks).toEqual(renderLevels(truth.asks, scales.get(instrument)!));
      expectBestFirst(response.body.bids, response.body.asks);
    }
    const pepe = (await get('/cmc/orderbook/pepe_eth').expect(200)).body;
    expect(pepe.bids.length).toBeGreaterThan(0);
    const entries: string[] = [...pepe.bids, ...pepe.asks].flat();
    expect(entries.filter((text) => !/^\d+\.\d{18}$/.test(text))).toEqual([]);
  });

  it('/cmc/orderbook honours depth (N/2 per side) and level (3 as 2), and refuses junk with 400', async () => {
    const full = (await get('/cmc/orderbook/btc_usdt').expect(200)).body;
    expect(full.bids.length).toBeGreaterThan(5);
    const cases: [string, number][] = [
      ['depth=10', 5],
      ['depth=5', 2],
      ['depth=2', 1],
      ['depth=10&level=1', 1],
      ['level=1', 1],
      ['depth=10&level=3', 5],
    ];
    for (const [query, perSide] of cases) {
      const book = (await get(`/cmc/orderbook/BTC-USDT?${query}`).expect(200)).body;
      expect(book.bids).toEqual(full.bids.slice(0, perSide));
      expect(book.asks).toEqual(full.asks.slice(0, perSide));
    }
    for (const query of ['depth=0', 'level=2', 'level=3', 'depth=', 'depth=100000']) {
      expect((await get(`/cmc/orderbook/Btc_Usdt?${query}`).expect(200)).body).toEqual(full);
    }
    for (const query of [
      'depth=1',
      'depth=-2',
      'depth=abc',
      'depth=1e3',
      'depth=2.0',
      'level=4',
      'level=0',
      'depth=2&depth=4',
    ]) {
      const response = await get(`/cmc/orderbook/btc_usdt?${query}`).expect(400);
      expect(response.body).toEqual({
        errors: [{ code: expect.stringMatching(/^invalid_/), message: expect.any(String) }],
      });
    }
  });

  it('/cmc/trades gives every trade of the last 24 hours, newest first, trade_id an exact JSON integer', async () => {
    for (const instrument of ['btc_usdt', 'pepe_eth', 'sol_eur', 'ltc_btc']) {
      const { priceScale, amountScale } = scales.get(instrument)!;
      const expected = want(instrument).window.slice().reverse();
      const response = await get(`/cmc/trades/${instrument}`).expect(200);
      expect(response.body).toHaveLength(expected.length);
      const ids = [...response.text.matchAll(/"trade_id":([^,]+),/g)].map((match) => match[1]);
      expect(ids).toEqual(expected.map((trade) => trade.id));
      response.body.forEach((row: Record<string, unknown>, index: number) => {
        const trade = expected[index];
        expect(row).toEqual({
          trade_id: Number(trade.id),
          price: fixed(trade.price, priceScale),
          base_volume: fixed(trade.amount, amountScale),
          quote_volume: fixed(new Big(trade.price).times(trade.amount), priceScale),
          timestamp: trade.time,
          type: trade.side,
        });
        expect(String(row.timestamp)).toMatch(/^\d{13}$/);
        if (index > 0)
          expect(row.timestamp as number).toBeLessThanOrEqual(response.body[index - 1].timestamp);
      });
    }
    expect(want('btc_usdt').window.length).toBeGreaterThan(10);
  });

  it('keeps the hidden market out and answers unknown pairs with 404 and the error body', async () => {
    for (const path of [
      `/cmc/orderbook/${HIDDEN}`,
      `/cmc/trades/${upper(HIDDEN)}`,
      '/cmc/orderbook/nope_nope',
      '/cmc/trades/btc_usd',
      '/cmc/trades/%E2%82%AC',
    ]) {
      const response = await get(path).expect(404);
      expect(response.body).toEqual({
        errors: [{ code: 'unknown_instrument', message: expect.any(String) }],
      });
    }
    const summary = (await get('/cmc/summary').expect(200)).body as { trading_pairs: string }[];
    expect(summary.map((record) => record.trading_pairs)).not.toContain(upper(HIDDEN));
    expect((await get('/cmc/ticker').expect(200)).body).not.toHaveProperty(upper(HIDDEN));
  });

  it('serves cached bytes with ETag, 304, gzip and Cache-Control', async () => {
    const first = await get('/cmc/ticker').expect(200);
    expect(first.headers['cache-control']).toBe('public, max-age=1');
    await get('/cmc/ticker').set('If-None-Match', first.headers.etag).expect(304);
    const gzip = await get('/cmc/trades/btc_usdt').set('Accept-Encoding', 'gzip').expect(200);
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect((await get('/cmc/assets').expect(200)).headers['cache-control']).toBe('public, max-age=60');
  });
});
