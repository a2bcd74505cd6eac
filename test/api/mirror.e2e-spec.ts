import Big from 'big.js';
import { isLosslessNumber, LosslessNumber, parse } from 'lossless-json';
import request from 'supertest';
import { unixMsFromDotNetTicks } from '../../src/market/dotnet-ticks';
import { startTestStack, TestStack } from '../support/start-test-stack';
import { setFlow, Truth } from '../support/truth';
import { HIDDEN, LISTED, settle } from './expected-figures';

const HOUR = 3_600_000;

/** JSON with every number kept as a LosslessNumber: numbers compare by their exact text, strings stay strings. */
const exact = (text: string) => parse(text) as Record<string, unknown>;
const number = (text: string) => new LosslessNumber(text);
/** Canonical text of a decimal: big.js writes no trailing zeros and, with these bounds, no exponent. */
const canonical = (value: Big) => value.toFixed();

/** `YYYY-MM-DDThh:mm:ss` of a Unix-millisecond time, as a client sends it. */
const queryDate = (ms: number) => new Date(ms).toISOString().slice(0, 19);

describe("the mirror of the exchange's public REST", () => {
  let stack: TestStack;
  let truths: Map<string, Truth>;

  beforeAll(async () => {
    stack = await startTestStack({ sandbox: { SANDBOX_FLOW_RATE: '20', SANDBOX_RATE_LIMITS: 'false' } });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    truths = await settle(stack);
  });
  afterAll(async () => {
    await setFlow(stack.sandbox, 0);
    await stack.close();
  });

  const get = (path: string) => request(stack.app.url).get(path);
  const exchange = async (path: string) => {
    const response = await fetch(`${stack.sandbox.baseUrl}${path}`);
    return { status: response.status, text: await response.text() };
  };

  it("/frontoffice/api/info equals the exchange's own market list but for serverTime", async () => {
    const before = Date.now();
    const mirror = await get('/frontoffice/api/info').expect(200).expect('content-type', /json/);
    const after = Date.now();
    const own = await exchange('/frontoffice/api/info');
    const mirrored = exact(mirror.text);
    const original = exact(own.text);
    expect(Object.keys(mirrored)).toEqual(['serverTime', 'pairs']);
    expect(mirrored.pairs).toEqual(original.pairs);

    expect(isLosslessNumber(mirrored.serverTime)).toBe(true);
    const ticks = (mirrored.serverTime as LosslessNumber).value;
    expect(ticks).toMatch(/^\d{18}$/);
    const serverTime = unixMsFromDotNetTicks(ticks)!;
    expect(serverTime).toBeGreaterThanOrEqual(before);
    expect(serverTime).toBeLessThanOrEqual(after);
  });

  it('/frontoffice/api/info lists the hidden market with hidden 1 and writes numbers as JSON numbers', async () => {
    const pairs = exact((await get('/frontoffice/api/info').expect(200)).text).pairs as Record<
      string,
      Record<string, unknown>
    >;
    expect(Object.keys(pairs).sort()).toEqual([...LISTED, HIDDEN].sort());
    expect(pairs[HIDDEN].hidden).toEqual(number('1'));
    for (const instrument of LISTED) expect(pairs[instrument].hidden).toEqual(number('0'));
    expect(pairs.ltc_btc.status).toBe('Halted');
    expect(pairs.xrp_usdt.status).toBe('Paused');
    expect(pairs.pepe_eth).toMatchObject({ priceScale: number('18'), amountScale: number('18') });
    for (const market of Object.values(pairs)) {
      for (const field of [
        'minAmount',
        'makerFee',
        'takerFee',
        'priceDeviation',
        'priceScale',
        'amountScale',
      ]) {
        expect(isLosslessNumber(market[field])).toBe(true);
      }
      expect(typeof market.baseAsset).toBe('string');
      expect(typeof market.isCustom).toBe('boolean');
    }
  });

  it("/depth is the truth's full book: both sides ascending, its version, exact totals, snapshot true", async () => {
    for (const instrument of LISTED) {
      const truth = truths.get(instrument)!;
      const response = await get(`/marketdata/instruments/${instrument}/depth`).expect(200);
      const body = exact(response.text);
      const entries = (levels: [string, string][]) =>
        levels.map(([price, amount]) => ({ amount: number(amount), price: number(price) }));
      const total = (levels: [string, string][]) =>
        number(canonical(levels.reduce((sum, [, amount]) => sum.plus(amount), new Big(0))));
      expect(body).toEqual({
        instrument,
        bids: entries(truth.bids.slice().reverse()),
        asks: entries(truth.asks),
        version: number(String(truth.version)),
        askTotalAmount: total(truth.asks),
        bidTotalAmount: total(truth.bids),
        snapshot: true,
      });
      expect(Object.keys(body)).toEqual([
        'instrument',
        'bids',
        'asks',
        'version',
        'askTotalAmount',
        'bidTotalAmount',
        'snapshot',
      ]);
      const prices = (side: { price: LosslessNumber }[]) => side.map((entry) => new Big(entry.price.value));
      const bids = prices(body.bids as { price: LosslessNumber }[]);
      const asks = prices(body.asks as { price: LosslessNumber }[]);
      expect(bids.findIndex((price, i) => i > 0 && !bids[i - 1].lt(price))).toBe(-1);
      expect(asks.findIndex((price, i) => i > 0 && !asks[i - 1].lt(price))).toBe(-1);
      // The exchange answers the same, byte for byte once parsed.
      expect(body).toEqual(exact((await exchange(`/marketdata/instruments/${instrument}/depth`)).text));
    }
  });

  it('/depth takes the instrument in any case with _ or -, and answers 404 for unknown and hidden ones', async () => {
    const reference = (await get('/marketdata/instruments/pepe_eth/depth').expect(200)).text;
    for (const spelling of ['PEPE_ETH', 'Pepe-Eth', 'pepe-eth']) {
      expect((await get(`/marketdata/instruments/${spelling}/depth`).expect(200)).text).toBe(reference);
    }
    const unknown = await get('/marketdata/instruments/nope_nope/depth').expect(404);
    expect(unknown.body).toEqual({ errors: [{ code: 'unknown_instrument', message: expect.any(String) }] });
    const hidden = await get(`/marketdata/instruments/${HIDDEN}/depth`).expect(404);
    expect(hidden.body).toEqual({
      errors: [{ code: 'hidden_instrument', message: expect.stringContaining(HIDDEN) }],
    });
    await get(
      `/marketdata/instruments/${HIDDEN}/history?startDate=2024-01-01T00:00:00&endDate=2024-01-02T00:00:00&type=1h`,
    ).expect(404);
  });

  it("/history builds from the truth's trades the candles the exchange builds", async () => {
    const now = Date.now();
    const query = `startDate=${queryDate(now - 2 * HOUR)}&endDate=${queryDate(now + HOUR)}&type=15m`;
    for (const instrument of ['btc_usdt', 'pepe_eth', 'sol_eur', 'ltc_btc']) {
      const trades = truths.get(instrument)!.trades;
      const buckets = new Map<number, typeof trades>();
      for (const trade of trades) {
        const start = Math.floor(trade.time / (15 * 60_000)) * 15 * 60_000;
        buckets.set(start, [...(buckets.get(start) ?? []), trade]);
      }
      const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
      const data = [...buckets.entries()]
        .sort(([a], [b]) => a - b)
        .map(([start, inBucket]) => {
          const prices = inBucket.map((trade) => new Big(trade.price));
          return {
            instrument,
            start: iso(start),
            end: iso(start + 15 * 60_000),
            low: number(canonical(prices.reduce((a, b) => (a.lt(b) ? a : b)))),
            high: number(canonical(prices.reduce((a, b) => (a.gt(b) ? a : b)))),
            volume: number(canonical(inBucket.reduce((sum, trade) => sum.plus(trade.amount), new Big(0)))),
            quoteVolume: number(
              canonical(
                inBucket.reduce(
                  (sum, trade) => sum.plus(new Big(trade.price).times(trade.amount)),
                  new Big(0),
                ),
              ),
            ),
            open: number(inBucket[0].price),
            close: number(inBucket[inBucket.length - 1].price),
          };
        });
      const response = await get(`/marketdata/instruments/${instrument}/history?${query}`).expect(200);
      expect(exact(response.text)).toEqual({
        success: true,
        instrument,
        data,
        startDateTime: `${queryDate(now - 2 * HOUR)}Z`,
        endDateTime: `${queryDate(now + HOUR)}Z`,
      });
    }
    expect(truths.get('btc_usdt')!.trades.length).toBeGreaterThan(10);
  });

  it('/history equals the exchange for every candle type, cut ranges and counts', async () => {
    const now = Date.now();
    const ranges: [number, number][] = [
      [now - 2 * HOUR, now + HOUR],
      [now - 37 * 60_000 - 13_000, now - 11 * 60_000 - 1_000],
      // Reaching back beyond the 24 hours the gateway holds: the exchange holds no older trades either.
      [now - 40 * 24 * HOUR, now + 24 * HOUR],
    ];
    const cases: string[] = [];
    for (const [from, to] of ranges) {
      for (const type of ['1m', '5m', '15m', '30m', '1h', '12h', '1d', '1w', '1M']) {
        cases.push(`startDate=${queryDate(from)}&endDate=${queryDate(to)}&type=${type}`);
      }
    }
    cases.push(`startDate=${queryDate(now - 2 * HOUR)}&endDate=${queryDate(now)}&type=1m&count=7`);
    cases.push(`startDate=${queryDate(now - 2 * HOUR)}&endDate=${queryDate(now)}&type=5m&count=1000`);
    for (const instrument of ['btc_usdt', 'pepe_eth']) {
      for (const query of cases) {
        const path = `/marketdata/instruments/${instrument}/history?${query}`;
        const mirror = await get(path).expect(200);
        const own = await exchange(path);
        expect(own.status).toBe(200);
        expect({ query, body: exact(mirror.text) }).toEqual({ query, body: exact(own.text) });
      }
    }
    const seven = exact(
      (await get(`/marketdata/instruments/btc_usdt/history?${cases[cases.length - 2]}`)).text,
    );
    expect(seven.data).toHaveLength(7);
  });

  it('/history validates its query as the exchange does: 400 naming every bad parameter', async () => {
    const valid = { startDate: '2024-05-01T00:00:00', endDate: '2024-05-02T00:00:00', type: '1h' };
    const junk: Record<string, string>[] = [
      {},
      { ...valid, type: '4h' },
      { ...valid, type: '1H' },
      { ...valid, startDate: '2024-05-01' },
      { ...valid, endDate: '2024-02-30T00:00:00' },
      { ...valid, endDate: valid.startDate },
      { ...valid, count: '0' },
      { ...valid, count: '1001' },
      { ...valid, count: 'ten' },
      { startDate: 'x', endDate: 'y', type: 'z', count: '-1' },
    ];
    for (const params of junk) {
      const query = new URLSearchParams(params).toString();
      const path = `/marketdata/instruments/btc_usdt/history?${query}`;
      const mirror = await get(path);
      const own = await exchange(path);
      expect({ query, status: mirror.status }).toEqual({ query, status: 400 });
      const messages = (JSON.parse(own.text) as { errors: { message: string }[] }).errors.map(
        (e) => e.message,
      );
      expect(mirror.body).toEqual({ errors: [{ code: 'bad_request', message: messages.join('; ') }] });
    }
    const repeated = await get(
      `/marketdata/instruments/btc_usdt/history?${new URLSearchParams(valid)}&type=1d`,
    ).expect(400);
    expect(repeated.body.errors[0].message).toMatch(/^type: must be given once/);
    const missing = await get('/marketdata/instruments/btc_usdt/history').expect(400);
    for (const name of ['startDate', 'endDate', 'type'])
      expect(missing.body.errors[0].message).toContain(name);
    await get(`/marketdata/instruments/nope_nope/history?${new URLSearchParams(valid)}`).expect(404);
  });

  it('answers with ETags, 304 and gzip like every endpoint of the API', async () => {
    const depth = await get('/marketdata/instruments/btc_usdt/depth').expect(200);
    expect(depth.headers['cache-control']).toBe('public, max-age=1');
    await get('/marketdata/instruments/btc_usdt/depth').set('If-None-Match', depth.headers.etag).expect(304);
    const gzip = await get('/frontoffice/api/info').set('Accept-Encoding', 'gzip').expect(200);
    expect(gzip.headers['content-encoding']).toBe('gzip');
  });
});
