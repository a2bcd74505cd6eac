import request from 'supertest';
import { waitFor } from '../support/fault-run';
import { startTestStack, TestStack } from '../support/start-test-stack';

/**
 * Every query parameter rule answers 400 with a message that names the rule and quotes the client's
 * value; CoinMarketCap's level 3 is served as the full level 2 book.
 */
describe('query parameters over a gateway fed by the sandbox', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startTestStack({ redis: false, sandbox: { SANDBOX_FLOW_RATE: '0' } });
    await waitFor(
      async () => (await fetch(`${stack.app.url}/orderbook/btc_usdt`)).status === 200,
      'the book served',
      30_000,
      100,
    );
  }, 60_000);
  afterAll(() => stack.close());

  const get = (path: string) => request(stack.app.url).get(path);
  const refusal = async (path: string) => {
    const response = await get(path).expect(400);
    expect(response.body.errors).toHaveLength(1);
    const [{ code, message }] = response.body.errors as { code: string; message: string }[];
    return `${code}: ${message}`;
  };

  it('/cmc/orderbook serves level=3 as the full level 2 book, depth honoured as for level 2', async () => {
    const full = (await get('/cmc/orderbook/btc_usdt').expect(200)).body;
    expect(full.bids.length).toBeGreaterThan(3);
    expect((await get('/cmc/orderbook/btc_usdt?level=3').expect(200)).body).toEqual(full);
    expect((await get('/cmc/orderbook/btc_usdt?level=3&depth=6').expect(200)).body).toEqual({
      ...full,
      bids: full.bids.slice(0, 3),
      asks: full.asks.slice(0, 3),
    });
    expect(await refusal('/cmc/orderbook/btc_usdt?level=4')).toBe(
      'invalid_level: level must be 1 (best bid and ask), 2 (every price level) or 3 (every price level, ' +
        'the finest book the exchange publishes), got "4"',
    );
  });

  it.each([
    [
      '/orderbook/btc_usdt?depth=99999999999999999999',
      'invalid_depth: depth must be at most 1000000, got "99999999999999999999"',
    ],
    [
      '/orderbook/btc_usdt?depth=3',
      'invalid_depth: depth must be even (N/2 levels per side) or 0 for the full book, got "3"',
    ],
    ['/orderbook/btc_usdt?depth=-2', 'invalid_depth: depth must not be negative, got "-2"'],
    [
      '/orderbook/btc_usdt?depth=ten',
      'invalid_depth: depth must be a non-negative integer, digits only, got "ten"',
    ],
    [
      '/orderbook/btc_usdt?level=3',
      'invalid_level: level must be 1 (best bid and ask) or 2 (every price level), got "3"',
    ],
    [
      '/cmc/orderbook/btc_usdt?depth=1',
      'invalid_depth: depth must be 0 (full book) or at least 2 (depth/2 per side), got "1"',
    ],
    [
      '/coingecko/orderbook?ticker_id=BTC_USDT&depth=5',
      'invalid_depth: depth must be even (N/2 levels per side) or 0 for the full book, got "5"',
    ],
    ['/coingecko/orderbook', 'missing_ticker_id: ticker_id is required, e.g. BTC_USDT'],
    [
      '/coingecko/historical_trades?ticker_id=BTC_USDT&type=both',
      'invalid_type: type must be buy or sell, got "both"',
    ],
    [
      '/coingecko/historical_trades?ticker_id=BTC_USDT&limit=2000000',
      'invalid_limit: limit must be at most 1000000, got "2000000"',
    ],
    [
      '/coingecko/historical_trades?ticker_id=BTC_USDT&start_time=2026-01-01',
      'invalid_start_time: start_time must be a Unix time in milliseconds (or seconds), digits only, got "2026-01-01"',
    ],
    [
      '/coingecko/historical_trades?ticker_id=BTC_USDT&start_time=1700000002&end_time=1700000001',
      'invalid_time_range: start_time must not be after end_time, got "1700000002" and "1700000001"',
    ],
  ])('%s: %s', async (path, expected) => {
    expect(await refusal(path)).toBe(expected);
  });

  it('quotes at most 64 characters of a long value, after the whole reason', async () => {
    const long = '7'.repeat(300);
    expect(await refusal(`/orderbook/btc_usdt?depth=${long}`)).toBe(
      `invalid_depth: depth must be at most 1000000, got "${'7'.repeat(64)}"...`,
    );
    expect(await refusal(`/coingecko/historical_trades?ticker_id=BTC_USDT&type=${'x'.repeat(300)}`)).toBe(
      `invalid_type: type must be buy or sell, got "${'x'.repeat(64)}"...`,
    );
  });

  it('refuses a key given twice, reads an empty value as not given, and ignores unknown keys', async () => {
    expect(await refusal('/orderbook/btc_usdt?depth=2&depth=4')).toBe(
      'invalid_depth: depth must be given once, got 2 values',
    );
    expect(await refusal('/coingecko/orderbook?ticker_id=BTC_USDT&ticker_id=ETH_BTC')).toBe(
      'invalid_ticker_id: ticker_id must be given once, got 2 values',
    );
    const full = (await get('/orderbook/btc_usdt').expect(200)).body;
    expect((await get('/orderbook/btc_usdt?depth=&level=').expect(200)).body).toEqual(full);
    expect((await get('/orderbook/btc_usdt?cachebuster=123&depth=0').expect(200)).body).toEqual(full);
  });
});
