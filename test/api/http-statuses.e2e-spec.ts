import { request as httpRequest } from 'node:http';
import { FastPath } from '../../src/api/http/fast-path';
import { startTestStack, TestStack } from '../support/start-test-stack';

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

function call(
  url: string,
  options: { method?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: options.method ?? 'GET', headers: options.headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

function errorOf(answer: Answer): { code: string; message: string } {
  expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
  const body = JSON.parse(answer.body) as { errors: { code: string; message: string }[] };
  expect(body.errors).toHaveLength(1);
  expect(Object.keys(body.errors[0]).sort()).toEqual(['code', 'message']);
  return body.errors[0];
}

/** Paths the fast path answers, and paths only Fastify has. */
const FAST = ['/summary', '/orderbook/btc_usdt', '/trades/eth_btc', '/coingecko/tickers'];
const FASTIFY_ONLY = [
  '/cmc/ticker',
  '/cmc/orderbook/btc_usdt',
  '/coingecko/orderbook?ticker_id=BTC_USDT',
  '/health/ready',
];

describe('HTTP statuses: 405, trailing slashes, 406, long inputs', () => {
  let stack: TestStack;
  let url: string;
  const handle = jest.spyOn(FastPath.prototype, 'handle');
  /** Whether the fast path answered the last request that reached the server. */
  const answeredFast = (): boolean => handle.mock.results.at(-1)?.value === true;

  beforeAll(async () => {
    stack = await startTestStack({
      redis: false,
      sandbox: { SANDBOX_FLOW_RATE: '0' },
      app: { RATE_LIMIT_PER_MINUTE: '0' },
    });
    url = stack.app.url;
    const deadline = Date.now() + 30_000;
    while ((await call(`${url}/orderbook/btc_usdt`)).status !== 200) {
      if (Date.now() > deadline) throw new Error('the gateway did not serve the book in time');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });

  afterAll(async () => {
    handle.mockRestore();
    await stack?.close();
  });

  describe('a known path with another method', () => {
    it.each(
      [...FAST, ...FASTIFY_ONLY, '/metrics', '/summary/'].flatMap((path) =>
        ['POST', 'PUT', 'DELETE', 'PATCH'].map((method) => [method, path]),
      ),
    )('%s %s is a 405 with Allow: GET, HEAD and the JSON error', async (method, path) => {
      const answer = await call(url + path, { method });
      expect(answer.status).toBe(405);
      expect(answer.headers.allow).toBe('GET, HEAD');
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.headers['cache-control']).toBe('no-store');
      const error = errorOf(answer);
      expect(error.code).toBe('method_not_allowed');
      expect(error.message).toMatch(new RegExp(`^${method} is not allowed on .*: it answers GET, HEAD$`));
    });

    it('keeps HEAD and GET, and a 404 for a path that does not exist whatever the method', async () => {
      expect((await call(`${url}/summary`, { method: 'HEAD' })).status).toBe(200);
      expect((await call(`${url}/cmc/ticker`, { method: 'HEAD' })).status).toBe(200);
      const missing = await call(`${url}/no/such/endpoint`, { method: 'POST' });
      expect(missing.status).toBe(404);
      expect(missing.headers.allow).toBeUndefined();
      expect(errorOf(missing).code).toBe('not_found');
    });
  });

  describe('a trailing slash', () => {
    it.each(['/summary', '/orderbook/btc_usdt', '/coingecko/pairs', '/cmc/ticker', '/health/live'])(
      '%s/ is served as %s, by Fastify',
      async (path) => {
        const slashed = await call(`${url}${path}/`);
        expect(answeredFast()).toBe(false);
        const canonical = await call(url + path);
        expect(slashed.status).toBe(200);
        expect(slashed.headers['content-type']).toBe(canonical.headers['content-type']);
        expect(Object.keys(JSON.parse(slashed.body))).toEqual(Object.keys(JSON.parse(canonical.body)));
      },
    );
  });

  describe('an Accept header', () => {
    const refusing = [
      'application/xml',
      'text/html',
      'text/*',
      'application/json;q=0',
      'application/json;q=0, */*',
      'image/png, text/plain;q=0.9',
    ];
    const accepting = [
      undefined,
      '*/*',
      'application/*',
      'application/json',
      'application/json; charset=utf-8',
      'application/json;q=0.1',
      'text/html, application/json;q=0.5',
      'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
    ];

    it.each([...FAST, ...FASTIFY_ONLY].flatMap((path) => refusing.map((accept) => [path, accept])))(
      'GET %s with Accept %j is a 406 with the JSON error',
      async (path, accept) => {
        const answer = await call(url + path, { headers: { accept } });
        expect(answeredFast()).toBe(false);
        expect(answer.status).toBe(406);
        expect(answer.headers['x-content-type-options']).toBe('nosniff');
        const error = errorOf(answer);
        expect(error.code).toBe('not_acceptable');
        expect(error.message).toMatch(
          /^this endpoint answers application\/json only, which the Accept header /,
        );
      },
    );

    it.each(
      [...FAST, ...FASTIFY_ONLY].flatMap((path) =>
        accepting.map((accept): [string, string | undefined] => [path, accept]),
      ),
    )('GET %s with Accept %j is served', async (path, accept) => {
      const answer = await call(url + path, { headers: accept === undefined ? {} : { accept } });
      if (FAST.includes(path)) expect(answeredFast()).toBe(true);
      expect(answer.status).toBe(200);
    });

    it('negotiates the metrics as text/plain and the OpenAPI page as HTML', async () => {
      const prometheus =
        'application/openmetrics-text;version=1.0.0;q=0.5,text/plain;version=0.0.4;q=0.3,*/*;q=0.1';
      for (const accept of ['text/plain', prometheus, 'text/*', '*/*'])
        expect((await call(`${url}/metrics`, { headers: { accept } })).status).toBe(200);
      const json = await call(`${url}/metrics`, { headers: { accept: 'application/json' } });
      expect(json.status).toBe(406);
      expect(errorOf(json).message).toMatch(/^this endpoint answers text\/plain only/);
      expect((await call(`${url}/docs`, { headers: { accept: 'text/html' } })).status).toBe(200);
      expect((await call(`${url}/docs`, { headers: { accept: 'application/json' } })).status).toBe(406);
      expect((await call(`${url}/docs-json`, { headers: { accept: 'application/json' } })).status).toBe(200);
    });
  });

  describe('an error that repeats the client input', () => {
    it.each([20, 101, 200, 1_000, 4_000])(
      'keeps its reason with an instrument of %i characters',
      async (length) => {
        const instrument = 'x'.repeat(length);
        for (const path of [
          `/orderbook/${instrument}`,
          `/cmc/trades/${instrument}`,
          `/coingecko/orderbook?ticker_id=${instrument}`,
        ]) {
          const error = errorOf(await call(url + path));
          expect(error.message).toMatch(
            /^(unknown instrument|a path segment is longer than 100 characters:) "/,
          );
          expect(error.message.length).toBeLessThan(160);
          if (length > 64) expect(error.message).toMatch(/…"$/);
        }
      },
    );

    it('keeps its reason for a malformed escape in a long URL', async () => {
      const error = errorOf(await call(`${url}/orderbook/%ZZ${'y'.repeat(500)}`));
      expect(error.code).toBe('bad_request');
      expect(error.message).toMatch(/^malformed URL \(an invalid percent escape\): "\/orderbook\/%ZZy+…"$/);
    });
  });
});
