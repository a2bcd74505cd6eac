import { request as httpRequest } from 'node:http';
import { rawExchange, rawRequest, rawResponse } from '../support/raw-http';
import { startTestStack, TestStack } from '../support/start-test-stack';

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

function call(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
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
    req.end(options.body);
  });
}

async function waitUntilServing(url: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while ((await call(`${url}/orderbook/btc_usdt`)).status !== 200) {
    if (Date.now() > deadline) throw new Error('the gateway did not serve the book in time');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function expectSecurityHeaders(headers: Answer['headers']): void {
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
  expect(headers['referrer-policy']).toBe('no-referrer');
  expect(headers['x-powered-by']).toBeUndefined();
}

const LIMIT = 40;

describe('hardening, with the defaults: CORS closed, no proxy trusted', () => {
  let stack: TestStack;
  let url: string;

  beforeAll(async () => {
    stack = await startTestStack({
      redis: false,
      sandbox: { SANDBOX_FLOW_RATE: '0' },
      app: { RATE_LIMIT_PER_MINUTE: '0' },
      tuning: { requestTimeoutMs: 1000 },
    });
    url = stack.app.url;
    await waitUntilServing(url);
  });

  afterAll(() => stack?.close());

  it('cuts off a client that sends its headers too slowly, with a 408', async () => {
    let timer: NodeJS.Timeout | undefined;
    // Resolved once the server closed the connection.
    const { text } = await rawExchange(url, (socket) => {
      socket.write('GET /summary HTTP/1.1\r\nHost: localhost\r\n');
      // A header line every 200 ms, never the blank line that ends them: slowloris.
      timer = setInterval(() => socket.writable && socket.write('X-Slow: 1\r\n'), 200);
    }).finally(() => clearInterval(timer));
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(text).toContain('"code":"request_timeout"');
    expect(text.toLowerCase()).toContain('x-content-type-options: nosniff');
  });

  it('answers a header over the size limit with 431 and the JSON error', async () => {
    const { text } = await rawExchange(url, (socket) =>
      socket.write(`GET /summary HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(10_000)}\r\n\r\n`),
    );
    expect(text).toMatch(/^HTTP\/1\.1 431 /);
    expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toEqual({
      errors: [{ code: 'request_header_fields_too_large', message: 'request headers exceed 8192 bytes' }],
    });
    expect(text.toLowerCase()).toContain('x-content-type-options: nosniff');
  });

  it('answers a URL over the size limit, a query string of 3,000 keys, with 414 and the JSON error', async () => {
    const query = Array.from({ length: 3_000 }, (_, key) => `k${key}=1`).join('&');
    const { text, error } = await rawRequest(
      url,
      `GET /summary?${query} HTTP/1.1\r\nHost: localhost\r\n\r\n`,
    );
    expect(error).toBeUndefined();
    const answer = rawResponse(text);
    expect(answer.status).toBe(414);
    expect(answer.headers).toMatchObject({ connection: 'close', 'cache-control': 'no-store' });
    expect(JSON.parse(answer.body)).toEqual({
      errors: [{ code: 'uri_too_long', message: 'request URL (path and query string) exceeds 8192 bytes' }],
    });
    expectSecurityHeaders(answer.headers);
    expect((await call(`${url}/summary`)).status).toBe(200);
  });

  it('serves a URL within the limit, and answers 431 when the headers after it pass the limit', async () => {
    const query = `pad=${'q'.repeat(6_000)}`;
    expect((await call(`${url}/summary?${query}`)).status).toBe(200);
    const { text } = await rawRequest(
      url,
      `GET /summary?${query} HTTP/1.1\r\nHost: localhost\r\nX-Pad: ${'h'.repeat(3_000)}\r\n\r\n`,
    );
    expect(rawResponse(text).status).toBe(431);
    const many = Array.from({ length: 500 }, (_, index) => `X-Header-${index}: value`).join('\r\n');
    const manyHeaders = await rawRequest(url, `GET /summary HTTP/1.1\r\nHost: localhost\r\n${many}\r\n\r\n`);
    expect(rawResponse(manyHeaders.text).status).toBe(431);
  });

  it('answers a body over the size limit with 413 and the JSON error, before the method is looked at', async () => {
    const answer = await call(`${url}/summary`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pad: 'x'.repeat(4_000) }),
    });
    expect(answer.status).toBe(413);
    expect(answer.headers.connection).toBe('close');
    expect(JSON.parse(answer.body)).toEqual({
      errors: [{ code: 'payload_too_large', message: 'request body exceeds 1024 bytes: the API takes none' }],
    });
    expectSecurityHeaders(answer.headers);
  });

  it('refuses a CORS preflight and adds no CORS header to a cross-origin GET', async () => {
    const preflight = await call(`${url}/summary`, {
      method: 'OPTIONS',
      headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'GET' },
    });
    expect(preflight.status).toBe(405);
    expect(preflight.headers.allow).toBe('GET, HEAD');
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    const get = await call(`${url}/summary`, { headers: { origin: 'https://elsewhere.example' } });
    expect(get.status).toBe(200);
    expect(get.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('sends the security headers with 200, 304, 400, 404 and the operational endpoints', async () => {
    const ok = await call(`${url}/orderbook/btc_usdt`);
    const notModified = await call(`${url}/orderbook/btc_usdt`, {
      headers: { 'if-none-match': String(ok.headers.etag) },
    });
    const answers = {
      200: ok,
      304: notModified,
      400: await call(`${url}/orderbook/btc_usdt?depth=3`),
      404: await call(`${url}/orderbook/nope_usdt`),
      '400 malformed URL': await call(`${url}/orderbook/%ZZ`),
      '404 no route': await call(`${url}/nothing/here`),
    };
    for (const [expected, answer] of Object.entries(answers)) {
      expect(`${expected}: ${answer.status}`).toBe(`${expected}: ${expected.slice(0, 3)}`);
      expectSecurityHeaders(answer.headers);
    }
    for (const path of ['/health/live', '/metrics', '/coingecko/orderbook?ticker_id=BTC_USDT'])
      expectSecurityHeaders((await call(url + path)).headers);
    // The OpenAPI page runs its own scripts: it keeps the other headers, not the strict policy.
    const docs = await call(`${url}/docs`);
    expect(docs.headers['x-content-type-options']).toBe('nosniff');
    expect(docs.headers['content-security-policy']).toBeUndefined();
  });

  it('checks an instrument against the listed markets before any store lookup', async () => {
    const readBook = jest.spyOn(stack.store, 'readBook');
    const readTrades = jest.spyOn(stack.store, 'readTrades');
    try {
      const unknown = ['nope_usdt', 'doge_usdt', 'BTC_USDT_X', 'x'.repeat(64)];
      for (const name of unknown) {
        for (const path of [
          `/orderbook/${name}`,
          `/trades/${name}`,
          `/cmc/orderbook/${name}`,
          `/cmc/trades/${name}`,
          `/coingecko/orderbook?ticker_id=${name}`,
          `/coingecko/historical_trades?ticker_id=${name}`,
        ]) {
          const answer = await call(url + path);
          expect(`${path}: ${answer.status}`).toBe(`${path}: 404`);
        }
      }
      const asked = [...readBook.mock.calls, ...readTrades.mock.calls].map(([instrument]) => instrument);
      for (const name of unknown) expect(asked).not.toContain(name);
      expect(asked.filter((instrument) => !/^[a-z0-9]+_[a-z0-9]+$/.test(instrument))).toEqual([]);
    } finally {
      readBook.mockRestore();
      readTrades.mockRestore();
    }
  });

  it('keys the rate limit on the socket peer, whatever X-Forwarded-For says', async () => {
    const limited = await startTestStack({
      redis: false,
      sandbox: { SANDBOX_FLOW_RATE: '0' },
      app: { RATE_LIMIT_PER_MINUTE: String(LIMIT) },
    });
    try {
      // Readiness, not a listing request, so that the wait spends none of the budget.
      const deadline = Date.now() + 20_000;
      while ((await call(`${limited.app.url}/health/ready`)).status !== 200) {
        if (Date.now() > deadline) throw new Error('the gateway did not get ready in time');
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const statuses: number[] = [];
      for (let i = 0; i <= LIMIT; i++) {
        const answer = await call(`${limited.app.url}/asset`, {
          headers: { 'x-forwarded-for': `10.0.0.${i}` },
        });
        statuses.push(answer.status);
      }
      expect(statuses.slice(0, LIMIT).every((status) => status === 200)).toBe(true);
      expect(statuses[LIMIT]).toBe(429);
      // Health, metrics and the documents are never limited.
      for (const path of ['/health/live', '/metrics', '/docs-json', '/docs/asyncapi.json', '/docs'])
        expect([path, (await call(`${limited.app.url}${path}`)).status]).toEqual([path, 200]);
    } finally {
      await limited.close();
    }
  });
});

describe('hardening, configured: CORS_ORIGINS and TRUST_PROXY', () => {
  let stack: TestStack;
  let url: string;
  const ALLOWED = 'https://allowed.example';

  beforeAll(async () => {
    stack = await startTestStack({
      redis: false,
      sandbox: { SANDBOX_FLOW_RATE: '0' },
      app: {
        CORS_ORIGINS: `${ALLOWED}, https://other.example`,
        TRUST_PROXY: '1',
        RATE_LIMIT_PER_MINUTE: String(LIMIT),
      },
    });
    url = stack.app.url;
    await waitUntilServing(url);
  });

  afterAll(() => stack?.close());

  it('allows a preflight and a GET from a configured origin, and only from one', async () => {
    const preflight = await call(`${url}/summary`, {
      method: 'OPTIONS',
      headers: { origin: ALLOWED, 'access-control-request-method': 'GET', 'x-forwarded-for': '10.1.0.1' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(String(preflight.headers['access-control-allow-methods'])).toContain('GET');
    const get = await call(`${url}/summary`, { headers: { origin: ALLOWED, 'x-forwarded-for': '10.1.0.1' } });
    expect(get.status).toBe(200);
    expect(get.headers['access-control-allow-origin']).toBe(ALLOWED);
    expectSecurityHeaders(get.headers);
    const stranger = await call(`${url}/summary`, {
      headers: { origin: 'https://stranger.example', 'x-forwarded-for': '10.1.0.1' },
    });
    expect(stranger.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('keys the rate limit on the client the trusted proxy names', async () => {
    const as = (client: string) => call(`${url}/ticker`, { headers: { 'x-forwarded-for': client } });
    for (let i = 0; i < LIMIT; i++) expect((await as('10.2.0.1')).status).toBe(200);
    const over = await as('10.2.0.1');
    expect(over.status).toBe(429);
    expect(JSON.parse(over.body).errors[0].code).toBe('too_many_requests');
    expect(over.headers['retry-after']).toBe(over.headers['x-ratelimit-reset']);
    expectSecurityHeaders(over.headers);
    // Another client behind the same proxy has a budget of its own.
    const other = await as('10.2.0.2');
    expect(other.status).toBe(200);
    expect(other.headers['x-ratelimit-remaining']).toBe(String(LIMIT - 1));
  });
});
