import { request as httpRequest } from 'node:http';
import { FastPath } from '../../src/api/http/fast-path';
import { startTestStack, TestStack } from '../support/start-test-stack';

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
}

/** Headers of the connection, not of the response; and the two that move with the clock. */
const SET_APART = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);
const RATE_LIMIT = 400;

/** One GET over a real socket: the way the fast path sees requests. */
function overSocket(url: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const call = httpRequest(url, { headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: flat(response.headers),
          body: Buffer.concat(chunks),
        }),
      );
    });
    call.on('error', reject);
    call.end();
  });
}

function flat(headers: Record<string, string | string[] | number | undefined>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined && !SET_APART.has(name)) result[name] = String(value);
  return result;
}

describe('the fast path answers as Fastify does', () => {
  let stack: TestStack;
  const handle = jest.spyOn(FastPath.prototype, 'handle');

  /** Whether the fast path answered the last request that reached the server. */
  const lastAnsweredFast = (): boolean => handle.mock.results.at(-1)?.value === true;

  beforeAll(async () => {
    stack = await startTestStack({
      redis: false,
      sandbox: { SANDBOX_FLOW_RATE: '0' },
      app: { RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT) },
    });
    // 503 until the catalogue and the books are in; no Last-Modified on a listing of every market
    // until each has been confirmed once, which would tell two answers apart.
    const deadline = Date.now() + 20_000;
    const settled = async () =>
      (await overSocket(`${stack.app.url}/orderbook/btc_usdt`, {})).status === 200 &&
      (await overSocket(`${stack.app.url}/asset`, {})).headers['last-modified'] !== undefined;
    while (!(await settled())) {
      if (Date.now() > deadline) throw new Error('the gateway did not serve every market in time');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });

  afterAll(async () => {
    handle.mockRestore();
    await stack?.close();
  });

  /**
   * The same request over a socket (the fast path) and injected into Fastify (its routes), again
   * when the state moved in between (a book check can rewrite a book even in a quiet market).
   */
  async function both(path: string, headers: Record<string, string> = {}): Promise<[Answer, Answer]> {
    for (let attempt = 1; ; attempt++) {
      const fast = await overSocket(stack.app.url + path, headers);
      expect(lastAnsweredFast()).toBe(true);
      const injected = await stack.app.app.inject({ method: 'GET', url: path, headers });
      const viaFastify = {
        status: injected.statusCode,
        headers: flat(injected.headers),
        body: injected.rawPayload,
      };
      if (viaFastify.headers.etag === fast.headers.etag || attempt === 3) return [fast, viaFastify];
    }
  }

  /**
   * Equal but for each request's own id, the budget one more request used, and what moves with the
   * clock: the data's age, when it was last known current (the quiet market's heartbeats move it),
   * and the seconds left in the rate limit's window.
   */
  function expectSame([fast, viaFastify]: [Answer, Answer]): void {
    expect(viaFastify.status).toBe(fast.status);
    expect(viaFastify.body.equals(fast.body)).toBe(true);
    expect(Object.keys(viaFastify.headers)).toEqual(Object.keys(fast.headers));
    for (const answer of [fast, viaFastify]) expect(answer.headers['x-request-id']).toMatch(/^[\w-]{36}$/);
    const clockless = ({
      'x-request-id': _id,
      'x-ratelimit-remaining': _remaining,
      'x-ratelimit-reset': _reset,
      'x-data-age-ms': _age,
      'last-modified': _modified,
      ...rest
    }: Record<string, string>) => rest;
    expect(clockless(viaFastify.headers)).toEqual(clockless(fast.headers));
    // The seconds left in the window may tick over between the two requests.
    const reset = Number(fast.headers['x-ratelimit-reset']);
    expect(reset - Number(viaFastify.headers['x-ratelimit-reset'])).toBeGreaterThanOrEqual(0);
    expect(reset - Number(viaFastify.headers['x-ratelimit-reset'])).toBeLessThanOrEqual(1);
    // One budget for both ways of serving: the injected request came next and used one more.
    const remaining = Number(fast.headers['x-ratelimit-remaining']);
    expect(Number(viaFastify.headers['x-ratelimit-remaining'])).toBe(Math.max(0, remaining - 1));
    for (const answer of [fast, viaFastify]) {
      const modified = answer.headers['last-modified'];
      if (modified !== undefined) expect(Date.parse(modified)).toBeGreaterThan(0);
    }
  }

  it.each([
    ['/summary', {}],
    ['/ticker', { 'accept-encoding': 'gzip' }],
    ['/asset', { 'accept-encoding': 'gzip, deflate, br' }],
    ['/orderbook/btc_usdt', {}],
    ['/orderbook/BTC-USDT', { 'accept-encoding': 'br' }],
    ['/trades/eth_btc', { 'accept-encoding': 'gzip' }],
    ['/coingecko/tickers', {}],
    ['/coingecko/pairs', { 'accept-encoding': 'gzip' }],
  ])('GET %s with %j: the same status, headers and bytes', async (path, headers) => {
    const answers = await both(path, headers);
    expect(answers[0].status).toBe(200);
    expect(answers[0].headers['x-content-type-options']).toBe('nosniff');
    expectSame(answers);
  });

  it('answers 304 to a matching If-None-Match on both ways alike', async () => {
    const { headers } = await overSocket(`${stack.app.url}/summary`, {});
    const answers = await both('/summary', { 'if-none-match': headers.etag, 'accept-encoding': 'gzip' });
    expect(answers[0].status).toBe(304);
    expect(answers[0].body.length).toBe(0);
    expectSame(answers);
  });

  it.each(['/orderbook/nope_usdt', '/trades/NOT_LISTED', `/orderbook/${'x'.repeat(100)}`])(
    'answers 404 for %s with the same JSON error',
    async (path) => {
      const answers = await both(path);
      expect(answers[0].status).toBe(404);
      expect(JSON.parse(answers[0].body.toString()).errors[0].code).toBe('unknown_instrument');
      expectSame(answers);
    },
  );

  it('leaves what it is not sure of to Fastify: queries, escapes, trailing slashes, long parameters', async () => {
    const fastify = async (path: string): Promise<Answer> => {
      const answer = await overSocket(stack.app.url + path, {});
      expect(lastAnsweredFast()).toBe(false);
      return answer;
    };
    const badDepth = await fastify('/orderbook/btc_usdt?depth=3');
    expect(badDepth.status).toBe(400);
    expect(JSON.parse(badDepth.body.toString()).errors[0].code).toBe('invalid_depth');
    expect((await fastify('/orderbook/btc%5Fusdt')).status).toBe(200);
    expect((await fastify('/summary/')).status).toBe(200);
    // Longer than Fastify's limit on a path parameter, which Fastify refuses in its own way.
    const long = await fastify(`/orderbook/${'x'.repeat(101)}`);
    expect(long.status).toBe(400);
    expect(JSON.parse(long.body.toString()).errors[0].code).toBe('bad_request');
  });

  it('passes on a sane X-Request-Id and counts its requests by route pattern, as Fastify does', async () => {
    const count = async (): Promise<number> => {
      const text = (await overSocket(`${stack.app.url}/metrics`, {})).body.toString();
      const line = text
        .split('\n')
        .find(
          (row) =>
            row.startsWith('mdg_http_requests_total{') &&
            row.includes('route="/orderbook/:instrument"') &&
            row.includes('status="200"'),
        );
      return line ? Number(line.split(' ').at(-1)) : 0;
    };
    const before = await count();
    const [fast, viaFastify] = await both('/orderbook/eth_btc', { 'x-request-id': 'abc-123' });
    expect(fast.headers['x-request-id']).toBe('abc-123');
    expect(viaFastify.headers['x-request-id']).toBe('abc-123');
    // The injected request is counted too: both ways of serving count alike.
    expect(await count()).toBe(before + 2);
  });

  it('answers 429 with the same body and headers once the shared budget is spent', async () => {
    let answers: [Answer, Answer];
    do answers = await both('/ticker');
    while (answers[1].status !== 429);
    const [fast, viaFastify] = await both('/ticker', { 'accept-encoding': 'gzip' });
    expect(fast.status).toBe(429);
    expect(viaFastify.status).toBe(429);
    // The seconds to wait may tick over between the two requests.
    const sansSeconds = (answer: Answer) => {
      expect(answer.headers['retry-after']).toBe(answer.headers['x-ratelimit-reset']);
      const headers = Object.fromEntries(
        Object.entries(answer.headers).filter(
          ([name]) => !['retry-after', 'x-ratelimit-reset', 'x-request-id'].includes(name),
        ),
      );
      return { headers, body: answer.body.toString().replace(/retry in \d+ s/, 'retry in N s') };
    };
    expect(sansSeconds(viaFastify)).toEqual(sansSeconds(fast));
    expect(JSON.parse(fast.body.toString())).toEqual({
      errors: [
        {
          code: 'too_many_requests',
          message: expect.stringMatching(/^rate limit of 400 requests per minute exceeded; retry in \d+ s$/),
        },
      ],
    });
    expect(fast.headers['x-ratelimit-remaining']).toBe('0');
  });
});
