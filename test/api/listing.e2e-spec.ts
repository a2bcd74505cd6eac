import Big from 'big.js';
import request from 'supertest';
import { MIN_COMPRESSED_BYTES } from '../../src/api/http/send-cached';
import { startTestStack, TestStack } from '../support/start-test-stack';
import { setFlow, Truth } from '../support/truth';
import { expectedFigures, fixed, FROZEN, LISTED, PLAIN, Scales, settle } from './expected-figures';

describe('listing endpoints over a gateway fed by the sandbox', () => {
  let stack: TestStack;
  let scales: Map<string, Scales>;
  const truths = new Map<string, Truth>();

  beforeAll(async () => {
    stack = await startTestStack({ sandbox: { SANDBOX_FLOW_RATE: '20' } });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    // Converged in the store, and served by the API at the same versions.
    for (const [instrument, truth] of await settle(stack)) truths.set(instrument, truth);
    const info = (await (await fetch(`${stack.sandbox.baseUrl}/frontoffice/api/info`)).json()) as {
      pairs: Record<string, Scales>;
    };
    scales = new Map(Object.entries(info.pairs));
  });
  afterAll(async () => {
    await setFlow(stack.sandbox, 0);
    await stack.close();
  });

  const get = (path: string) => request(stack.app.url).get(path);

  it("/summary lists every visible market under BASE_QUOTE with the truth's figures", async () => {
    const response = await get('/summary').expect(200).expect('content-type', /json/);
    expect(Object.keys(response.body).sort()).toEqual(LISTED.map((i) => i.toUpperCase()));
    const now = Date.now();
    for (const instrument of LISTED) {
      const record = response.body[instrument.toUpperCase()];
      const want = expectedFigures(truths.get(instrument)!, scales.get(instrument)!, now);
      expect(Object.keys(record).sort()).toEqual(
        [
          'baseVolume',
          'high24hr',
          'highestBid',
          'id',
          'isFrozen',
          'last',
          'low24hr',
          'lowestAsk',
          'percentChange',
          'quoteVolume',
        ].sort(),
      );
      for (const field of [
        'last',
        'lowestAsk',
        'highestBid',
        'baseVolume',
        'quoteVolume',
        'high24hr',
        'low24hr',
      ]) {
        expect(record[field]).toMatch(PLAIN);
      }
      expect(record.percentChange).toMatch(/^-?\d+\.\d{2}$/);
      expect(record.percentChange).not.toBe('-0.00');
      expect(record).toMatchObject({
        last: want.last,
        highestBid: want.bestBid,
        lowestAsk: want.bestAsk,
        baseVolume: want.baseVolume,
        quoteVolume: want.quoteVolume,
        high24hr: want.high,
        low24hr: want.low,
        percentChange: want.percentChange,
        isFrozen: FROZEN.has(instrument) ? '1' : '0',
      });
    }
  });

  it('/summary gives a market without a trade in 24 hours a zero last price beside its live book, zero 24-hour figures and 0.00', async () => {
    const halted = (await get('/summary').expect(200)).body.LTC_BTC;
    expect(halted.highestBid).not.toMatch(/^0(\.0+)?$/);
    expect(halted).toMatchObject({
      last: '0.0000000',
      baseVolume: '0.0000',
      quoteVolume: '0.0000000',
      percentChange: '0.00',
      isFrozen: '1',
    });
  });

  it('/ticker agrees with /summary under lower-case keys', async () => {
    const [ticker, summary] = await Promise.all([get('/ticker').expect(200), get('/summary').expect(200)]);
    expect(Object.keys(ticker.body).sort()).toEqual(LISTED);
    for (const instrument of LISTED) {
      const record = ticker.body[instrument];
      const market = summary.body[instrument.toUpperCase()];
      const [base, quote] = instrument.toUpperCase().split('_');
      expect(record).toEqual({
        base_name: base,
        quote_name: quote,
        last_price: market.last,
        base_volume: market.baseVolume,
        quote_volume: market.quoteVolume,
        isFrozen: market.isFrozen,
      });
    }
  });

  it('/asset lists the assets of the visible markets under upper-case symbols, named, nothing made up', async () => {
    const response = await get('/asset').expect(200);
    const traded = new Set(LISTED.flatMap((i) => i.toUpperCase().split('_')));
    expect(Object.keys(response.body).sort()).toEqual([...traded].sort());
    // Without ASSETS_FILE nobody states withdraw and deposit terms: only the name is known.
    for (const asset of Object.values(response.body) as Record<string, unknown>[]) {
      expect(Object.keys(asset)).toEqual(['name']);
      expect(typeof asset.name).toBe('string');
    }
  });

  it('/orderbook gives the full book at the market scale, bids descending, asks ascending', async () => {
    for (const instrument of LISTED) {
      const { priceScale, amountScale } = scales.get(instrument)!;
      const truth = truths.get(instrument)!;
      const response = await get(`/orderbook/${instrument}`).expect(200);
      expect(response.body.timestamp).toMatch(/^\d{13}$/);
      const render = (levels: [string, string][]) =>
        levels.map(([p, a]) => [fixed(p, priceScale), fixed(a, amountScale)]);
      expect(response.body.bids).toEqual(render(truth.bids));
      expect(response.body.asks).toEqual(render(truth.asks));
      const bids = response.body.bids.map(([p]: string[]) => new Big(p));
      const asks = response.body.asks.map(([p]: string[]) => new Big(p));
      for (let i = 1; i < bids.length; i++) expect(bids[i - 1].gt(bids[i])).toBe(true);
      for (let i = 1; i < asks.length; i++) expect(asks[i - 1].lt(asks[i])).toBe(true);
      expect(bids[0].lt(asks[0])).toBe(true);
    }
  });

  it('/orderbook honours depth and level, and names the market in any case with _ or -', async () => {
    const full = (await get('/orderbook/btc_usdt').expect(200)).body;
    const ten = (await get('/orderbook/BTC-USDT?depth=10').expect(200)).body;
    expect(ten.bids).toEqual(full.bids.slice(0, 5));
    expect(ten.asks).toEqual(full.asks.slice(0, 5));
    expect((await get('/orderbook/Btc_Usdt?depth=0').expect(200)).body).toEqual(full);
    const best = (await get('/orderbook/btc_usdt?level=1').expect(200)).body;
    expect(best.bids).toEqual(full.bids.slice(0, 1));
    expect(best.asks).toEqual(full.asks.slice(0, 1));
    for (const query of ['depth=3', 'depth=-2', 'depth=abc', 'level=3', 'level=', 'depth=1e3']) {
      const response = await get(`/orderbook/btc_usdt?${query}`);
      if (query === 'level=') expect(response.status).toBe(200);
      else expect(response.body.errors?.[0]?.code).toMatch(/^invalid_/);
    }
  });

  it('/trades gives every trade of the last 24 hours, newest first, with exact quote volumes', async () => {
    for (const instrument of ['btc_usdt', 'pepe_eth', 'ltc_btc']) {
      const { priceScale, amountScale } = scales.get(instrument)!;
      const now = Date.now();
      const want = expectedFigures(truths.get(instrument)!, scales.get(instrument)!, now)
        .window.slice()
        .reverse();
      const response = await get(`/trades/${instrument}`).expect(200);
      expect(response.body).toHaveLength(want.length);
      response.body.forEach((row: Record<string, string>, index: number) => {
        const trade = want[index];
        expect(row).toEqual({
          tradeID: trade.id,
          price: fixed(trade.price, priceScale),
          base_volume: fixed(trade.amount, amountScale),
          quote_volume: fixed(new Big(trade.price).times(trade.amount), priceScale),
          trade_timestamp: String(trade.time),
          type: trade.side,
        });
      });
    }
  });

  it('keeps the hidden market out and answers unknown instruments with 404 and the error body', async () => {
    for (const path of [
      '/orderbook/doge_usdt',
      '/trades/doge_usdt',
      '/orderbook/nope_nope',
      '/trades/%E2%82%AC',
    ]) {
      const response = await get(path).expect(404);
      expect(response.body).toEqual({
        errors: [{ code: 'unknown_instrument', message: expect.any(String) }],
      });
    }
    expect((await get('/summary')).body.DOGE_USDT).toBeUndefined();
  });

  it('serves cached bytes: ETag and 304, gzip and brotli, Cache-Control, and the age of its data', async () => {
    const first = await get('/summary').expect(200);
    expect(first.headers['cache-control']).toBe('public, max-age=1');
    expect(Number(first.headers['x-data-age-ms'])).toBeGreaterThanOrEqual(0);
    expect(first.headers['last-modified']).toBeDefined();
    await get('/summary').set('If-None-Match', first.headers.etag).expect(304);
    const gzip = await get('/orderbook/btc_usdt').set('Accept-Encoding', 'gzip').expect(200);
    expect(gzip.headers['content-encoding']).toBe('gzip');
    const brotli = await get('/orderbook/btc_usdt').set('Accept-Encoding', 'br, gzip').expect(200);
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.body).toEqual(gzip.body);
    // A body of a few hundred bytes goes as it is: compressing it saves next to nothing.
    const top = await get('/orderbook/btc_usdt?level=1').set('Accept-Encoding', 'br, gzip').expect(200);
    expect(top.headers['content-encoding']).toBeUndefined();
    expect(Number(top.headers['content-length'])).toBeLessThan(MIN_COMPRESSED_BYTES);
    expect(top.body.bids).toHaveLength(1);
  });
});

describe('listing endpoints without a trade feed', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startTestStack({ credentials: false, redis: false });
  });
  afterAll(() => stack.close());

  it('/trades says clearly that the trade feed is not configured', async () => {
    const deadline = Date.now() + 10_000;
    let response = await request(stack.app.url).get('/trades/btc_usdt');
    while (response.status !== 503 || response.body.errors?.[0]?.code !== 'trade_feed_not_configured') {
      if (Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
      response = await request(stack.app.url).get('/trades/btc_usdt');
    }
    expect(response.status).toBe(503);
    expect(response.body.errors[0]).toEqual({
      code: 'trade_feed_not_configured',
      message: expect.stringMatching(/UPSTREAM_EMAIL/),
    });
  });
});
