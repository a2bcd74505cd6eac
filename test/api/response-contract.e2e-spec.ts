import type { OpenAPIObject } from '@nestjs/swagger';
import { formatQueryDate } from '../../src/market/exchange-date';
import { waitFor } from '../support/fault-run';
import { ContractResponse, ResponseContract } from '../support/response-contract';
import { startTestStack, TestStack } from '../support/start-test-stack';
import { setFlow } from '../support/truth';
import { HIDDEN, LISTED } from './expected-figures';

/** A request and the documented path it is an instance of. */
type Call = readonly [template: string, url: string];

async function call(
  base: string,
  url: string,
  headers: Record<string, string> = {},
): Promise<ContractResponse> {
  const response = await fetch(`${base}${url}`, { headers });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** Problems of each call that breaks the contract, by URL; `{}` when every answer keeps it. */
async function broken(
  base: string,
  contract: ResponseContract,
  calls: readonly Call[],
  expectedStatus: number,
): Promise<Record<string, string[]>> {
  const problems: Record<string, string[]> = {};
  for (const [template, url] of calls) {
    const response = await call(base, url);
    const found = contract.problems(template, response);
    if (response.status !== expectedStatus)
      found.unshift(`status ${response.status}: ${response.text.slice(0, 200)}`);
    if (found.length > 0) problems[url] = found;
  }
  return problems;
}

async function documentOf(stack: TestStack): Promise<OpenAPIObject> {
  return (await (await fetch(`${stack.app.url}/docs-json`)).json()) as OpenAPIObject;
}

/** `base_quote` written the other ways the API accepts. */
const upper = (instrument: string) => instrument.toUpperCase();
const dashed = (instrument: string) => instrument.replace('_', '-').toUpperCase();

describe('live responses against the OpenAPI document', () => {
  let stack: TestStack;
  let contract: ResponseContract;

  beforeAll(async () => {
    stack = await startTestStack({
      redis: false,
      sandbox: { SANDBOX_FLOW_RATE: '20' },
      app: { RATE_LIMIT_PER_MINUTE: '100000' },
    });
    contract = new ResponseContract(await documentOf(stack));
    await waitFor(
      async () => (await call(stack.app.url, '/health/ready')).status === 200,
      'ready',
      60_000,
      200,
    );
    await waitFor(
      async () => (await call(stack.app.url, '/trades/btc_usdt')).text.length > 2,
      'trades of btc_usdt',
      30_000,
      200,
    );
  });
  afterAll(async () => {
    await setFlow(stack.sandbox, 0);
    await stack.close();
  });

  const expectKept = async (calls: readonly Call[], status = 200) =>
    expect(await broken(stack.app.url, contract, calls, status)).toEqual({});

  it('the market-wide listing, CoinMarketCap and CoinGecko endpoints', async () => {
    await expectKept(
      [
        '/asset',
        '/summary',
        '/ticker',
        '/cmc/summary',
        '/cmc/assets',
        '/cmc/ticker',
        '/coingecko/pairs',
        '/coingecko/tickers',
        '/frontoffice/api/info',
        '/listing-health',
      ].map((path) => [path, path]),
    );
  });

  it("every listed market's listing health", async () => {
    await expectKept(
      LISTED.map((m): Call => ['/listing-health/{instrument}', `/listing-health/${dashed(m)}`]),
    );
  });

  it("every listed market's books, halted, paused and 18-decimal ones included", async () => {
    await expectKept(
      LISTED.flatMap((m): Call[] => [
        ['/orderbook/{instrument}', `/orderbook/${m}`],
        ['/orderbook/{instrument}', `/orderbook/${dashed(m)}?depth=4`],
        ['/orderbook/{instrument}', `/orderbook/${m}?level=1`],
        ['/cmc/orderbook/{pair}', `/cmc/orderbook/${upper(m)}`],
        ['/cmc/orderbook/{pair}', `/cmc/orderbook/${m}?depth=5&level=2`],
        ['/cmc/orderbook/{pair}', `/cmc/orderbook/${dashed(m)}?level=1`],
        ['/cmc/orderbook/{pair}', `/cmc/orderbook/${m}?level=3&depth=10`],
        ['/coingecko/orderbook', `/coingecko/orderbook?ticker_id=${upper(m)}`],
        ['/coingecko/orderbook', `/coingecko/orderbook?ticker_id=${m}&depth=2`],
        ['/marketdata/instruments/{instrument}/depth', `/marketdata/instruments/${m}/depth`],
      ]),
    );
  });

  it("every listed market's trades and candles", async () => {
    const now = Date.now();
    const hourAgoSeconds = Math.floor((now - 3_600_000) / 1000);
    const range = `startDate=${formatQueryDate(now - 7_200_000)}&endDate=${formatQueryDate(now + 3_600_000)}`;
    await expectKept(
      LISTED.flatMap((m): Call[] => [
        ['/trades/{instrument}', `/trades/${m}`],
        ['/cmc/trades/{pair}', `/cmc/trades/${upper(m)}`],
        ['/coingecko/historical_trades', `/coingecko/historical_trades?ticker_id=${upper(m)}`],
        [
          '/coingecko/historical_trades',
          `/coingecko/historical_trades?ticker_id=${m}&type=SELL&limit=3&start_time=${hourAgoSeconds}&end_time=${now}`,
        ],
        [
          '/marketdata/instruments/{instrument}/history',
          `/marketdata/instruments/${m}/history?${range}&type=1m`,
        ],
        [
          '/marketdata/instruments/{instrument}/history',
          `/marketdata/instruments/${m}/history?${range}&type=1h&count=1`,
        ],
      ]),
    );
  });

  it('health and metrics', async () => {
    await expectKept([
      ['/health/live', '/health/live'],
      ['/health/ready', '/health/ready'],
      ['/metrics', '/metrics'],
    ]);
  });

  it('a 304 for the current ETag', async () => {
    const first = await call(stack.app.url, '/cmc/assets');
    const again = await call(stack.app.url, '/cmc/assets', { 'if-none-match': first.headers.get('etag')! });
    expect(again.status).toBe(304);
    expect(contract.problems('/cmc/assets', again)).toEqual([]);
  });

  it('400 for a parameter that breaks its rule', async () => {
    await expectKept(
      [
        ['/orderbook/{instrument}', '/orderbook/btc_usdt?depth=3'],
        ['/orderbook/{instrument}', '/orderbook/btc_usdt?level=7'],
        ['/cmc/orderbook/{pair}', '/cmc/orderbook/BTC_USDT?depth=1'],
        ['/coingecko/orderbook', '/coingecko/orderbook'],
        ['/coingecko/orderbook', '/coingecko/orderbook?ticker_id=BTC_USDT&depth=-2'],
        ['/coingecko/historical_trades', '/coingecko/historical_trades?ticker_id=BTC_USDT&type=all'],
        ['/coingecko/historical_trades', '/coingecko/historical_trades?ticker_id=BTC_USDT&start_time=1e12'],
        ['/marketdata/instruments/{instrument}/history', '/marketdata/instruments/btc_usdt/history?type=4h'],
      ],
      400,
    );
  });

  it('405 for another method, 406 for an Accept without JSON', async () => {
    const problems = async (template: string, url: string, init: RequestInit, status: number) => {
      const response = await fetch(`${stack.app.url}${url}`, init);
      const answered = { status: response.status, headers: response.headers, text: await response.text() };
      const found = contract.problems(template, answered);
      return answered.status === status ? found : [`status ${answered.status}`, ...found];
    };
    expect(await problems('/summary', '/summary', { method: 'POST' }, 405)).toEqual([]);
    expect(
      await problems('/orderbook/{instrument}', '/orderbook/btc_usdt', { method: 'DELETE' }, 405),
    ).toEqual([]);
    const xml = { headers: { accept: 'application/xml' } };
    expect(await problems('/summary', '/summary', xml, 406)).toEqual([]);
    expect(await problems('/cmc/orderbook/{pair}', '/cmc/orderbook/BTC_USDT', xml, 406)).toEqual([]);
  });

  it('404 for an unknown or hidden market', async () => {
    await expectKept(
      [
        ['/orderbook/{instrument}', '/orderbook/abc_xyz'],
        ['/trades/{instrument}', `/trades/${HIDDEN}`],
        ['/cmc/trades/{pair}', '/cmc/trades/ABC_XYZ'],
        ['/cmc/orderbook/{pair}', `/cmc/orderbook/${upper(HIDDEN)}`],
        ['/coingecko/historical_trades', `/coingecko/historical_trades?ticker_id=${upper(HIDDEN)}`],
        ['/marketdata/instruments/{instrument}/depth', `/marketdata/instruments/${HIDDEN}/depth`],
        ['/marketdata/instruments/{instrument}/history', '/marketdata/instruments/abc_xyz/history'],
        ['/listing-health/{instrument}', `/listing-health/${HIDDEN}`],
      ],
      404,
    );
  });
});

describe('live error responses of a gateway without a trade feed, under a small rate limit', () => {
  /** The four trade requests (the document's request is not limited); the next one is over the limit. */
  const LIMIT = 4;
  let stack: TestStack;
  let contract: ResponseContract;

  beforeAll(async () => {
    stack = await startTestStack({
      redis: false,
      credentials: false,
      app: { RATE_LIMIT_PER_MINUTE: String(LIMIT) },
    });
    contract = new ResponseContract(await documentOf(stack));
    await waitFor(
      async () => (await call(stack.app.url, '/health/ready')).status === 200,
      'ready',
      60_000,
      200,
    );
  });
  afterAll(() => stack.close());

  it('503 for trades, then 429 beyond the limit', async () => {
    const range = 'startDate=2026-01-01T00:00:00&endDate=2026-01-02T00:00:00&type=1h';
    const trades: Call[] = [
      ['/trades/{instrument}', '/trades/btc_usdt'],
      ['/cmc/trades/{pair}', '/cmc/trades/BTC_USDT'],
      ['/coingecko/historical_trades', '/coingecko/historical_trades?ticker_id=BTC_USDT'],
      ['/marketdata/instruments/{instrument}/history', `/marketdata/instruments/btc_usdt/history?${range}`],
    ];
    expect(trades).toHaveLength(LIMIT);
    expect(await broken(stack.app.url, contract, trades, 503)).toEqual({});
    expect(await broken(stack.app.url, contract, [['/summary', '/summary']], 429)).toEqual({});
  });
});
