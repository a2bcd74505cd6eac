import { request as httpRequest } from 'node:http';
import type { Socket } from 'node:net';
import { BODY_LIMIT_BYTES, DROPPED_AFTER_REFUSAL_BYTES } from '../../src/api/http/body-limit';
import { FastPath } from '../../src/api/http/fast-path';
import { rawExchange, RawExchange, rawRequest, rawResponse, rawResponses } from '../support/raw-http';
import { RawWebSocket } from '../support/raw-websocket';
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
      {
        method: options.method ?? 'GET',
        // Node's client frames no body of a GET unless told its length.
        headers:
          options.body === undefined
            ? options.headers
            : { ...options.headers, 'content-length': String(Buffer.byteLength(options.body)) },
        agent: false,
      },
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

const METHODS = ['GET', 'HEAD', 'DELETE', 'OPTIONS', 'POST', 'PUT', 'PATCH'];
/** A path of the fast path, one only Fastify serves, and one with no route. */
const ANY_PATH = ['/summary', '/cmc/ticker', '/no/such/endpoint'];
const TOO_LARGE = {
  errors: [{ code: 'payload_too_large', message: 'request body exceeds 1024 bytes: the API takes none' }],
};

/** A request head, its lines joined; `Host` comes first. */
function head(requestLine: string, ...headers: string[]): string {
  return [requestLine, 'Host: localhost', ...headers, '', ''].join('\r\n');
}

/** One chunk of a chunked body. */
function chunk(data: string): string {
  return `${data.length.toString(16)}\r\n${data}\r\n`;
}

/** The one answer of `exchange` is the 413 with the JSON error, and the server closed the connection cleanly. */
function expectTooLarge(exchange: RawExchange, method = 'GET'): void {
  expect(exchange.error).toBeUndefined();
  const answer = rawResponse(exchange.text, method !== 'HEAD');
  expect(answer.status).toBe(413);
  expect(answer.headers).toMatchObject({
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    connection: 'close',
    'content-length': String(JSON.stringify(TOO_LARGE).length),
  });
  if (method === 'HEAD') expect(answer.body).toBe('');
  else expect(JSON.parse(answer.body)).toEqual(TOO_LARGE);
}

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

  describe('a body over the limit', () => {
    it.each(METHODS.flatMap((method) => ANY_PATH.map((path) => [method, path])))(
      '%s %s declaring a Content-Length over the limit gets the 413 before it sends the body',
      async (method, path) => {
        // The body is never sent: the answer cannot have waited for it.
        expectTooLarge(
          await rawRequest(url, head(`${method} ${path} HTTP/1.1`, 'Content-Length: 200000')),
          method,
        );
        expect((await call(`${url}/summary`)).status).toBe(200);
      },
    );

    it.each(METHODS.flatMap((method) => ANY_PATH.map((path) => [method, path])))(
      '%s %s with a chunked body gets the 413 once the body passes the limit, unfinished',
      async (method, path) => {
        const over = chunk('c'.repeat(BODY_LIMIT_BYTES)) + chunk('c');
        expectTooLarge(
          await rawRequest(url, head(`${method} ${path} HTTP/1.1`, 'Transfer-Encoding: chunked') + over),
          method,
        );
        expect((await call(`${url}/summary`)).status).toBe(200);
      },
    );

    it('GET with a 200 KB body sent whole: the 413, the body read to its end, no reset', async () => {
      const body = 'b'.repeat(200_000);
      expectTooLarge(
        await rawRequest(url, head('GET /summary HTTP/1.1', `Content-Length: ${body.length}`) + body),
      );
      const chunked = chunk(body) + '0\r\n\r\n';
      expectTooLarge(
        await rawRequest(url, head('GET /summary HTTP/1.1', 'Transfer-Encoding: chunked') + chunked),
      );
      expect((await call(`${url}/summary`)).status).toBe(200);
    });

    it('counts the limit in bytes: 1024 are served, 1025 are not', async () => {
      for (const [framing, body] of [
        [
          'Content-Length',
          (data: string) => head('GET /summary HTTP/1.1', `Content-Length: ${data.length}`) + data,
        ],
        [
          'chunked',
          (data: string) =>
            head('GET /summary HTTP/1.1', 'Transfer-Encoding: chunked') + chunk(data) + '0\r\n\r\n',
        ],
      ] as const) {
        const within = await rawExchange(url, (socket) => {
          socket.write(body('w'.repeat(BODY_LIMIT_BYTES)));
          socket.end(head('GET /asset HTTP/1.1'));
        });
        expect([framing, rawResponses(within.text).map((answer) => answer.status)]).toEqual([
          framing,
          [200, 200],
        ]);
        expectTooLarge(await rawRequest(url, body('w'.repeat(BODY_LIMIT_BYTES + 1))));
      }
    });

    it('answers a client that waits for 100 Continue with the 413 instead', async () => {
      const exchange = await rawRequest(
        url,
        head('PUT /summary HTTP/1.1', 'Content-Length: 5000000', 'Expect: 100-continue'),
      );
      expect(exchange.text).toMatch(/^HTTP\/1\.1 413 /);
      expectTooLarge(exchange);
    });

    it('answers in turn a body over the limit pipelined behind another request', async () => {
      const body = 'p'.repeat(2 * BODY_LIMIT_BYTES);
      const exchange = await rawRequest(
        url,
        head('GET /health/ready HTTP/1.1') +
          head('GET /summary HTTP/1.1', `Content-Length: ${body.length}`) +
          body,
      );
      const answers = rawResponses(exchange.text);
      expect(answers.map((answer) => answer.status)).toEqual([200, 413]);
      expect(JSON.parse(answers[1].body)).toEqual(TOO_LARGE);
    });

    it('cuts the connection after the 413 when the body goes on past what is dropped', async () => {
      const body = Buffer.alloc(4 * DROPPED_AFTER_REFUSAL_BYTES, 'd');
      const served = new Promise<number>((resolve) =>
        stack.app.app
          .getHttpServer()
          .once('connection', (socket: Socket) => socket.once('close', () => resolve(socket.bytesRead))),
      );
      const exchange = await rawRequest(
        url,
        Buffer.concat([Buffer.from(head('GET /summary HTTP/1.1', `Content-Length: ${body.length}`)), body]),
      );
      // Read in chunks of at most 64 KiB, the body is dropped up to the bound, then the server stops.
      expect(await served).toBeLessThan(DROPPED_AFTER_REFUSAL_BYTES + 128 * 1024);
      // What arrived before the reset, if anything, is the start of the 413.
      expect('HTTP/1.1 413 '.startsWith(exchange.text.slice(0, 13))).toBe(true);
      expect((await call(`${url}/summary`)).status).toBe(200);
    });

    it('serves a body within the limit as before: the same answer, the 404, the 405', async () => {
      const plain = await call(`${url}/asset`);
      const withBody = await call(`${url}/asset`, { body: '{"ignored":true}' });
      expect(withBody.status).toBe(200);
      expect(withBody.body).toBe(plain.body);
      const post = await call(`${url}/no/such/endpoint`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"a":1}',
      });
      expect([post.status, errorOf(post).code]).toEqual([404, 'not_found']);
      const known = await call(`${url}/summary`, { method: 'POST', body: 'x' });
      expect([known.status, known.headers.allow]).toEqual([405, 'GET, HEAD']);
    });
  });

  describe('/stream without the websocket upgrade', () => {
    const message = '/stream is the live stream, a websocket: ask for it with Upgrade: websocket';

    it.each(['/stream', '/stream/', '/stream?channel=ticker'])(
      'GET %s is a 426 with Upgrade: websocket and the JSON error',
      async (path) => {
        const answer = await call(url + path);
        expect(answer.status).toBe(426);
        expect(answer.headers.upgrade).toBe('websocket');
        expect(answer.headers.connection).toBe('Upgrade');
        expect(answer.headers['x-content-type-options']).toBe('nosniff');
        expect(answer.headers['cache-control']).toBe('no-store');
        expect(errorOf(answer)).toEqual({ code: 'upgrade_required', message });
      },
    );

    it('HEAD /stream is the 426 without a body', async () => {
      const answer = await call(`${url}/stream`, { method: 'HEAD' });
      expect([answer.status, answer.headers.upgrade, answer.body]).toEqual([426, 'websocket', '']);
    });

    it.each(['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'])(
      '%s /stream is a 405 with Allow: GET, HEAD',
      async (method) => {
        const answer = await call(`${url}/stream`, { method });
        expect(answer.status).toBe(405);
        expect(answer.headers.allow).toBe('GET, HEAD');
        expect(errorOf(answer)).toEqual({
          code: 'method_not_allowed',
          message: `${method} is not allowed on "/stream": it answers GET, HEAD`,
        });
      },
    );

    it('keeps the connection for the next request, and the upgrade still opens the stream', async () => {
      const exchange = await rawExchange(url, (socket) => {
        socket.write(head('GET /stream HTTP/1.1'));
        socket.end(head('GET /asset HTTP/1.1'));
      });
      expect(rawResponses(exchange.text).map((answer) => answer.status)).toEqual([426, 200]);
      const stream = await RawWebSocket.open(url);
      stream.close();
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
