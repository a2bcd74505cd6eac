import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  BudgetUsage,
  RequestBudget,
  RequestPermit,
  RestFamily,
} from '../../src/upstream/rest/request-budget';
import { DEFAULT_TIMEOUT_MS, RestClient, RestClientOptions } from '../../src/upstream/rest/rest-client';
import {
  RestBodyError,
  RestNetworkError,
  RestStatusError,
  RestTimeoutError,
} from '../../src/upstream/rest/rest-errors';
import { TokenBucketBudget } from '../../src/upstream/rest/token-bucket-budget';
import { resolvesWithin } from '../support/resolves-within';

jest.setTimeout(20_000);

type Responder = (request: IncomingMessage, response: ServerResponse) => void;

interface SeenRequest {
  readonly url: string;
  /** performance.now() when the request arrived. */
  readonly at: number;
}

const INFO_BODY =
  '{"serverTime":638460052135890000,"pairs":{"btc_usdt":{"baseAsset":"btc","quoteAsset":"usdt","minAmount":0.0001,' +
  '"priceDeviation":0.15,"hidden":0,"makerFee":0.001,"takerFee":0.002,"priceScale":2,"amountScale":8,' +
  '"createdAt":"2024-03-14T09:26:53.589793","updatedAt":"2024-03-14T09:26:53.589793","status":"Open","side":"BuySell"}}}';

const DEPTH_BODY =
  '{"instrument":"btc_usdt","bids":[{"amount":0.5,"price":64999.5}],"asks":[{"amount":0.25,"price":65000}],' +
  '"version":42,"askTotalAmount":0.25,"bidTotalAmount":0.5,"snapshot":true}';

const OVERLOADED = '{"errors":[{"code":"","message":"System is currently overloaded"}]}';

function answer(status: number, body: string, headers: Record<string, string> = {}): Responder {
  return (_request, response) => {
    response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    response.end(body);
  };
}

/** Never answers; the connection stays open until the client gives up or the server closes. */
const silence: Responder = () => undefined;

/** Drops the connection without an answer. */
const hangUp: Responder = (request) => request.socket.destroy();

/**
 * A local exchange stand-in under a `/trading` path: answers each request with the next responder
 * of its script (the last one repeats) and records what it was asked and when.
 */
class ScriptedExchange {
  readonly seen: SeenRequest[] = [];
  private script: Responder[] = [];
  private readonly server: Server;

  constructor() {
    this.server = createServer((request, response) => {
      this.seen.push({ url: request.url ?? '', at: performance.now() });
      const responder = this.script.length > 1 ? this.script.shift()! : this.script[0];
      responder(request, response);
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/trading`;
  }

  answer(...responders: Responder[]): void {
    this.script = responders;
    this.seen.length = 0;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A real budget that also notes each permit it hands out. */
class CountingBudget implements RequestBudget {
  readonly acquired: RestFamily[] = [];
  private readonly inner = new TokenBucketBudget({ limits: { frontoffice: 1000, marketdata: 1000 } });

  readonly released: RestFamily[] = [];

  async acquire(family: RestFamily, signal?: AbortSignal): Promise<RequestPermit> {
    const permit = await this.inner.acquire(family, signal);
    this.acquired.push(family);
    return {
      release: () => {
        this.released.push(family);
        permit.release();
      },
    };
  }

  usage(): Promise<readonly BudgetUsage[]> {
    return this.inner.usage();
  }
}

describe('RestClient against a controllable exchange', () => {
  const exchange = new ScriptedExchange();
  let baseUrl: string;
  let budget: CountingBudget;
  let warnings: string[];

  beforeAll(async () => {
    baseUrl = await exchange.start();
  });
  afterAll(() => exchange.close());
  beforeEach(() => {
    budget = new CountingBudget();
    warnings = [];
  });

  function client(options: Partial<RestClientOptions> = {}): RestClient {
    return new RestClient({
      baseUrl,
      budget,
      timeoutMs: 2000,
      retry: { maxAttempts: 3, baseDelayMs: 20, maxDelayMs: 100 },
      random: () => 0.5,
      logger: { warn: (message) => warnings.push(message) },
      ...options,
    });
  }

  const gapsMs = () => exchange.seen.slice(1).map((request, index) => request.at - exchange.seen[index].at);

  it('joins the base path, decodes the answer and takes a permit of the right family', async () => {
    exchange.answer(answer(200, INFO_BODY));
    const info = await client({ baseUrl: `${baseUrl}/` }).info();
    expect(info.serverTime).toBe(1710408413589);
    expect(info.markets.map((market) => market.instrument)).toEqual(['btc_usdt']);
    expect(exchange.seen.map((request) => request.url)).toEqual(['/trading/frontoffice/api/info']);
    expect(budget.acquired).toEqual(['frontoffice']);
  });

  it('logs the markets it leaves out and returns the others', async () => {
    exchange.answer(answer(200, INFO_BODY.replace('"pairs":{', '"pairs":{"eth_usdt":{"baseAsset":"eth"},')));
    const info = await client().info();
    expect(info.markets.map((market) => market.instrument)).toEqual(['btc_usdt']);
    expect(info.skipped.map((skipped) => skipped.key)).toEqual(['eth_usdt']);
    expect(warnings).toEqual([expect.stringMatching(/market left out of .*: pairs\.eth_usdt\./)]);
  });

  it('retries a 429 after the Retry-After it asks for, through the budget again', async () => {
    exchange.answer(
      answer(429, '{"errors":[{"code":"","message":"Too many requests"}]}', { 'retry-after': '1' }),
      answer(200, DEPTH_BODY),
    );
    const book = await client().depth('BTC_USDT');
    expect(book).toMatchObject({ instrument: 'btc_usdt', version: 42, snapshot: true });
    expect(exchange.seen.map((request) => request.url)).toEqual([
      '/trading/marketdata/instruments/btc_usdt/depth',
      '/trading/marketdata/instruments/btc_usdt/depth',
    ]);
    expect(gapsMs()[0]).toBeGreaterThanOrEqual(990);
    expect(budget.acquired).toEqual(['marketdata', 'marketdata']);
    expect(budget.released).toEqual(['marketdata', 'marketdata']);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/429.*attempt 2 of 3 in 1000 ms/);
  });

  it('retries a 503 and succeeds', async () => {
    exchange.answer(answer(503, OVERLOADED), answer(200, INFO_BODY));
    const info = await client().info();
    expect(info.markets).toHaveLength(1);
    expect(exchange.seen).toHaveLength(2);
  });

  it('gives up on a persistent 503 after the bounded attempts, with the exchange error body', async () => {
    exchange.answer(answer(503, OVERLOADED));
    const failure = client().info();
    await expect(failure).rejects.toBeInstanceOf(RestStatusError);
    const error = (await failure.catch((caught: unknown) => caught)) as RestStatusError;
    expect(error.status).toBe(503);
    expect(error.attempts).toBe(3);
    expect(error.errors).toEqual([{ code: '', message: 'System is currently overloaded' }]);
    expect(error.message).toContain('System is currently overloaded');
    expect(exchange.seen).toHaveLength(3);
    // Full jitter with random 0.5: half of 20 ms, then half of 40 ms.
    expect(gapsMs()[0]).toBeGreaterThanOrEqual(9);
    expect(gapsMs()[1]).toBeGreaterThanOrEqual(19);
  });

  it('retries other 5xx answers too', async () => {
    exchange.answer(
      answer(502, '<html>Bad gateway</html>'),
      answer(500, '{"errors":[{"code":"unexpected","message":"boom"}]}'),
      answer(200, INFO_BODY),
    );
    await expect(client().info()).resolves.toMatchObject({ serverTime: 1710408413589 });
    expect(exchange.seen).toHaveLength(3);
  });

  it('does not retry a 404 and reports its status and body', async () => {
    exchange.answer(
      answer(404, '{"errors":[{"code":"not_found","message":"Unknown instrument nope_usdt"}]}'),
    );
    const error = (await client()
      .depth('nope_usdt')
      .catch((caught: unknown) => caught)) as RestStatusError;
    expect(error).toBeInstanceOf(RestStatusError);
    expect(error.status).toBe(404);
    expect(error.attempts).toBe(1);
    expect(error.errors).toEqual([{ code: 'not_found', message: 'Unknown instrument nope_usdt' }]);
    expect(exchange.seen).toHaveLength(1);
  });

  it('does not retry a 400 whose body is not the exchange error shape', async () => {
    exchange.answer(answer(400, 'bad request'));
    const error = (await client()
      .info()
      .catch((caught: unknown) => caught)) as RestStatusError;
    expect(error).toBeInstanceOf(RestStatusError);
    expect(error.errors).toEqual([]);
    expect(error.bodyText).toBe('bad request');
    expect(exchange.seen).toHaveLength(1);
  });

  it('times out a request that gets no answer and retries it within the bounds', async () => {
    exchange.answer(silence);
    let error: unknown;
    const call = client({ timeoutMs: 150, retry: { maxAttempts: 2, baseDelayMs: 10 } })
      .info()
      .catch((caught: unknown) => (error = caught));
    // Before what one attempt would take with the default timeout (10 s) in place of 150 ms.
    expect(await resolvesWithin(call, DEFAULT_TIMEOUT_MS / 2)).toBe(true);
    expect(error).toBeInstanceOf(RestTimeoutError);
    expect((error as RestTimeoutError).attempts).toBe(2);
    expect(exchange.seen).toHaveLength(2);
    expect(budget.released).toHaveLength(2);
  });

  it('recovers when a timeout is followed by an answer', async () => {
    exchange.answer(silence, answer(200, INFO_BODY));
    await expect(client({ timeoutMs: 150 }).info()).resolves.toMatchObject({ serverTime: 1710408413589 });
    expect(exchange.seen).toHaveLength(2);
  });

  it('retries a dropped connection', async () => {
    exchange.answer(hangUp, answer(200, DEPTH_BODY));
    await expect(client().depth('btc_usdt')).resolves.toMatchObject({ version: 42 });
    expect(exchange.seen).toHaveLength(2);
  });

  it('reports a network error when nothing listens', async () => {
    const closed = new ScriptedExchange();
    const closedUrl = await closed.start();
    await closed.close();
    const error = await client({ baseUrl: closedUrl })
      .info()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RestNetworkError);
    expect((error as RestNetworkError).attempts).toBe(3);
    expect((error as Error).message).toMatch(/ failed: exchange unreachable: connection refused$/);
  });

  it('rejects malformed JSON with a typed error and no retry', async () => {
    exchange.answer(answer(200, '{"serverTime":638460052135890000,"pairs":{'));
    const error = await client()
      .info()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RestBodyError);
    expect((error as RestBodyError).problems[0]).toMatch(/^not JSON/);
    expect(exchange.seen).toHaveLength(1);
  });

  it('rejects JSON of the wrong shape with a typed error naming the problem', async () => {
    exchange.answer(
      answer(200, '{"instrument":"btc_usdt","bids":[{"amount":"lots","price":1}],"asks":[],"version":1}'),
    );
    const error = await client()
      .depth('btc_usdt')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RestBodyError);
    expect((error as RestBodyError).problems).toEqual([
      'bids[0].amount: expected a non-negative decimal number, got "lots"',
    ]);
  });

  it('rejects a book of another instrument than the one asked for', async () => {
    exchange.answer(answer(200, DEPTH_BODY));
    await expect(client().depth('eth_usdt')).rejects.toThrow(/instrument: expected eth_usdt, got btc_usdt/);
  });

  it('gives up at once when Retry-After asks for longer than it may wait', async () => {
    exchange.answer(answer(503, OVERLOADED, { 'retry-after': '3600' }), answer(200, INFO_BODY));
    const error = (await client()
      .info()
      .catch((caught: unknown) => caught)) as RestStatusError;
    expect(error).toBeInstanceOf(RestStatusError);
    expect(error.retryAfterMs).toBe(3_600_000);
    expect(exchange.seen).toHaveLength(1);
  });

  it('ends the call with the signal reason when the caller aborts during a backoff', async () => {
    exchange.answer(answer(429, '', { 'retry-after': '5' }), answer(200, INFO_BODY));
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('shutting down')), 100);
    const call = client().info({ signal: controller.signal });
    // Before the 5 s backoff would have ended.
    expect(
      await resolvesWithin(
        call.catch(() => undefined),
        4_000,
      ),
    ).toBe(true);
    await expect(call).rejects.toThrow('shutting down');
    expect(exchange.seen).toHaveLength(1);
  });

  it('ends the call with the signal reason when the caller aborts a request in flight', async () => {
    exchange.answer(silence);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('stop')), 50);
    await expect(client().info({ signal: controller.signal })).rejects.toThrow('stop');
    expect(exchange.seen).toHaveLength(1);
  });

  it('asks for candles with the documented query and returns them oldest first', async () => {
    exchange.answer(
      answer(
        200,
        '{"success":true,"instrument":"btc_usdt","data":[' +
          '{"instrument":"btc_usdt","start":"2024-03-14T09:01:00Z","end":"2024-03-14T09:02:00Z","low":1,"high":2,"volume":3,"open":1,"close":2},' +
          '{"instrument":"btc_usdt","start":"2024-03-14T09:00:00Z","end":"2024-03-14T09:01:00Z","low":1,"high":2,"volume":3,"open":1,"close":2},' +
          '{"instrument":"btc_usdt","start":"2024-03-14T09:02:00Z","end":"2024-03-14T09:03:00Z","low":1,"high":2,"volume":3,"open":1,"close":2}' +
          '],"startDateTime":"2024-03-14T09:00:00Z","endDateTime":"2024-03-14T10:00:00Z"}',
      ),
    );
    const start = Date.parse('2024-03-14T09:00:00Z');
    const candles = await client().history('btc_usdt', {
      start,
      end: start + 3_600_000,
      interval: '1m',
      count: 2,
    });
    expect(exchange.seen[0].url).toBe(
      '/trading/marketdata/instruments/btc_usdt/history?startDate=2024-03-14T09%3A00%3A00&endDate=2024-03-14T10%3A00%3A00&type=1m&count=2',
    );
    // The answer held three candles for a count of two: the newest two are kept.
    expect(candles.map((candle) => candle.start)).toEqual([start + 60_000, start + 120_000]);
    expect(budget.acquired).toEqual(['marketdata']);
  });
});
