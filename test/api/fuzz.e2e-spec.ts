import fc from 'fast-check';
import { waitFor } from '../support/fault-run';
import { startTestStack, TestStack } from '../support/start-test-stack';

const ALLOWED = new Set([200, 304, 400, 404, 429]);
const SEED = 20261122;

const instrument = fc.oneof(
  fc.constantFrom(
    'btc_usdt',
    'BTC-USDT',
    'pepe_eth',
    'doge_usdt',
    'ltc_btc',
    'Eth_Btc',
    '',
    '..',
    '%00',
    '%ZZ',
    'btc%2Fusdt',
  ),
  fc.string({ maxLength: 40 }).map(encodeURIComponent),
  fc.stringMatching(/^[a-zA-Z0-9_-]{1,30}$/),
);

const queryValue = fc.oneof(
  fc.constantFrom(
    '0',
    '2',
    '10',
    '3',
    '-2',
    '1e3',
    '999999999999',
    'abc',
    '',
    '1',
    '2.0',
    'buy',
    'sell',
    'true',
  ),
  fc.string({ maxLength: 20 }).map(encodeURIComponent),
  fc.integer({ min: -1000, max: 1_000_000 }).map(String),
);

const query = fc
  .array(
    fc.tuple(
      fc.constantFrom(
        'depth',
        'level',
        'ticker_id',
        'type',
        'limit',
        'start_time',
        'end_time',
        'startDate',
        'endDate',
        'count',
        'x',
        '__proto__',
        'constructor',
      ),
      queryValue,
    ),
    { maxLength: 5 },
  )
  .map((pairs) => (pairs.length ? `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}` : ''));

const path = fc.oneof(
  fc.constantFrom(
    '/asset',
    '/summary',
    '/ticker',
    '/cmc/summary',
    '/cmc/assets',
    '/cmc/ticker',
    '/coingecko/pairs',
    '/coingecko/tickers',
    '/coingecko/orderbook',
    '/coingecko/historical_trades',
    '/frontoffice/api/info',
    '/',
    '/docs-json',
  ),
  instrument.map((i) => `/orderbook/${i}`),
  instrument.map((i) => `/trades/${i}`),
  instrument.map((i) => `/cmc/orderbook/${i}`),
  instrument.map((i) => `/cmc/trades/${i}`),
  instrument.map((i) => `/marketdata/instruments/${i}/depth`),
  instrument.map((i) => `/marketdata/instruments/${i}/history`),
  fc
    .array(fc.stringMatching(/^[a-zA-Z0-9._~%-]{0,12}$/), { minLength: 1, maxLength: 4 })
    .map((parts) => `/${parts.join('/')}`),
);

describe('the API under random paths and query strings', () => {
  let stack: TestStack;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);

  beforeAll(async () => {
    process.on('unhandledRejection', onUnhandled);
    stack = await startTestStack({ redis: false, app: { RATE_LIMIT_PER_MINUTE: '600' } });
    // Every book loaded first: before that, a 503 is the right answer, and not what is fuzzed here.
    await waitFor(
      async () => (await fetch(`${stack.app.url}/health/ready`)).status === 200,
      'the gateway ready',
      60_000,
      200,
    );
    const listed = Object.keys((await (await fetch(`${stack.app.url}/ticker`)).json()) as object);
    await waitFor(
      async () => {
        const answers = await Promise.all(
          listed.map((i) => fetch(`${stack.app.url}/orderbook/${i}?level=1`)),
        );
        return answers.every((answer) => answer.status === 200);
      },
      'every listed book served',
      30_000,
      100,
    );
  }, 120_000);
  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    await stack.close();
  });

  it('answers thousands of them only with 200, 304, 400, 404 or 429, JSON errors, and stays up', async () => {
    const requests = fc.sample(fc.tuple(path, query, fc.boolean()), { numRuns: 3000, seed: SEED });
    const seen = new Map<number, number>();
    for (let start = 0; start < requests.length; start += 20) {
      await Promise.all(
        requests.slice(start, start + 20).map(async ([route, search, gzip]) => {
          const url = `${stack.app.url}${route}${search}`;
          const response = await fetch(url, { headers: gzip ? { 'accept-encoding': 'gzip' } : {} });
          const text = await response.text();
          seen.set(response.status, (seen.get(response.status) ?? 0) + 1);
          if (!ALLOWED.has(response.status))
            throw new Error(`${response.status} for ${url}: ${text.slice(0, 200)}`);
          if (response.status >= 400) {
            expect(JSON.parse(text)).toEqual({
              errors: [{ code: expect.any(String), message: expect.any(String) }],
            });
            expect(text).not.toMatch(/\bat .+\.(ts|js):\d+/);
          }
        }),
      );
    }
    expect(seen.get(200)).toBeGreaterThan(100);
    expect(seen.get(404)).toBeGreaterThan(100);
    expect(seen.get(400)).toBeGreaterThan(10);
    expect(seen.get(429)).toBeGreaterThan(0);
    expect(unhandled).toEqual([]);
    expect((await fetch(`${stack.app.url}/health/live`)).status).toBe(200);
  });
});
