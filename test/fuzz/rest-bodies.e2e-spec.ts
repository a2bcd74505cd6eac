import fc from 'fast-check';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Registry } from 'prom-client';
import { canonicalDecimal } from '../../src/market/decimal';
import { RequestBudget } from '../../src/upstream/rest/request-budget';
import { RestClient } from '../../src/upstream/rest/rest-client';
import { RestBodyError, RestStatusError } from '../../src/upstream/rest/rest-errors';
import { REJECTED_METRIC, UpstreamRejections } from '../../src/upstream/upstream-rejections';
import { fuzzCases, ProcessFailures } from './support/fuzz-run';
import { damagedText, jsonText, JsonLike, junkValue, mutatedJson, RawJson } from './support/junk-json';

const CASES_PER_ENDPOINT = 1_000;

const market = (base: string, quote: string): JsonLike => ({
  baseAsset: base,
  quoteAsset: quote,
  minAmount: new RawJson('0.0001'),
  priceDeviation: new RawJson('0.15'),
  hidden: 0,
  makerFee: new RawJson('0.001'),
  takerFee: new RawJson('0.002'),
  priceScale: 2,
  amountScale: 8,
  createdAt: '2024-03-14T09:26:53.589793',
  updatedAt: '2024-03-14T09:26:53.589793',
  status: 'Open',
  side: 'BuySell',
});

const INFO: JsonLike = {
  serverTime: new RawJson('638460052135890000'),
  pairs: { btc_usdt: market('btc', 'usdt'), eth_btc: market('eth', 'btc') },
};

const DEPTH: JsonLike = {
  instrument: 'btc_usdt',
  bids: [{ amount: new RawJson('0.5'), price: new RawJson('64999.5') }],
  asks: [{ amount: new RawJson('0.25'), price: new RawJson('65000') }],
  version: 42,
  askTotalAmount: new RawJson('0.25'),
  bidTotalAmount: new RawJson('0.5'),
  snapshot: true,
};

const candle = (start: string, end: string): JsonLike => ({
  instrument: 'btc_usdt',
  start,
  end,
  low: 1,
  high: new RawJson('2.5'),
  volume: 3,
  open: 1,
  close: 2,
  quoteVolume: new RawJson('6.000000000000000001'),
});

const HISTORY: JsonLike = {
  success: true,
  instrument: 'btc_usdt',
  data: [
    candle('2024-03-14T09:00:00Z', '2024-03-14T09:01:00Z'),
    candle('2024-03-14T09:01:00Z', '2024-03-14T09:02:00Z'),
  ],
  startDateTime: '2024-03-14T09:00:00Z',
  endDateTime: '2024-03-14T10:00:00Z',
};

interface Reply {
  readonly status: number;
  readonly body: string;
  readonly retryAfter?: string;
}

/** An answer of the exchange: a damaged body with 200, or an error status with junk. */
function reply(valid: JsonLike): fc.Arbitrary<Reply> {
  const text = jsonText(valid);
  const body = fc.oneof(
    { arbitrary: mutatedJson(valid).map(jsonText), weight: 6 },
    { arbitrary: damagedText(text), weight: 2 },
    { arbitrary: junkValue.map(jsonText), weight: 1 },
    { arbitrary: fc.constant(text), weight: 1 },
  );
  return fc.oneof(
    { arbitrary: body.map((value) => ({ status: 200, body: value })), weight: 9 },
    {
      arbitrary: fc.record({
        status: fc.constantFrom(400, 404, 429, 500, 503),
        body: fc.oneof(body, fc.constant('{"errors":[{"code":7,"message":{}}]}')),
        retryAfter: fc.constantFrom(
          '1',
          '-1',
          '1e400',
          'soon',
          'Wed, 21 Oct 2015 07:28:00 GMT',
          '99999999999999999999',
        ),
      }),
      weight: 1,
    },
  );
}

/** Answers every request with the next reply of its queue. */
class JunkExchange {
  readonly replies: Reply[] = [];
  private readonly server: Server = createServer((request, response) => {
    request.resume();
    const next = this.replies.shift() ?? { status: 500, body: 'queue empty' };
    response.writeHead(next.status, {
      'content-type': 'application/json',
      ...(next.retryAfter === undefined ? {} : { 'retry-after': next.retryAfter }),
    });
    response.end(next.body);
  });

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/trading`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** No limit: the fuzz needs thousands of answers, and the budget is tested elsewhere. */
const UNLIMITED: RequestBudget = {
  acquire: () => Promise.resolve({ release: () => undefined }),
  usage: () => Promise.resolve([]),
};

describe('REST bodies of the exchange under fuzzing', () => {
  const failures = new ProcessFailures();
  let exchange: JunkExchange;
  let client: RestClient;
  let registry: Registry;
  const logLines: string[] = [];
  beforeAll(async () => {
    failures.install();
    exchange = new JunkExchange();
    registry = new Registry();
    const logger = { warn: (line: string) => logLines.push(line) };
    client = new RestClient({
      baseUrl: await exchange.listen(),
      budget: UNLIMITED,
      retry: { maxAttempts: 1 },
      logger,
      rejections: new UpstreamRejections(logger, { registry }),
    });
  });
  afterAll(async () => {
    failures.uninstall();
    await exchange.close();
  });

  async function rejected(): Promise<Record<string, number>> {
    const metric = await registry.getSingleMetric(REJECTED_METRIC)!.get();
    return Object.fromEntries(metric.values.map((sample) => [String(sample.labels.reason), sample.value]));
  }

  const endpoints: [string, JsonLike, () => Promise<unknown>, number][] = [
    ['info', INFO, () => client.info(), 3],
    ['depth', DEPTH, () => client.depth('btc_usdt'), 4],
    [
      'history',
      HISTORY,
      () =>
        client.history('btc_usdt', {
          start: Date.parse('2024-03-14T09:00:00Z'),
          end: Date.parse('2024-03-14T10:00:00Z'),
          interval: '1m',
          count: 60,
        }),
      5,
    ],
  ];

  it.each(endpoints)(
    'the client reads each %s body or fails with a RestBodyError or RestStatusError, and counts each rejected body',
    async (_name, valid, call, offset) => {
      const before = await rejected();
      let bodyErrors = 0;
      let skippedMarkets = 0;
      const unexpected: string[] = [];
      for (const next of fuzzCases(reply(valid), CASES_PER_ENDPOINT, offset)) {
        exchange.replies.push(next);
        try {
          const result = await call();
          if (next.status !== 200) unexpected.push(`a ${next.status} answer was accepted`);
          const info = result as { skipped?: unknown[]; markets?: { minAmount: string }[] };
          skippedMarkets += info.skipped?.length ?? 0;
          for (const marketInfo of info.markets ?? [])
            expect(canonicalDecimal(marketInfo.minAmount)).toBe(marketInfo.minAmount);
        } catch (error) {
          if (error instanceof RestBodyError && next.status === 200) bodyErrors += 1;
          else if (!(error instanceof RestStatusError && error.status === next.status))
            unexpected.push(`${String(error)} for ${next.status} ${next.body.slice(0, 200)}`);
        }
      }
      const after = await rejected();
      const increase = (reason: string) => (after[reason] ?? 0) - (before[reason] ?? 0);
      expect(unexpected).toEqual([]);
      expect(bodyErrors).toBeGreaterThan(CASES_PER_ENDPOINT / 4);
      expect(increase('not-json') + increase('invalid-body')).toBe(bodyErrors);
      expect(increase('invalid-market')).toBe(skippedMarkets);
      expect(exchange.replies).toEqual([]);
    },
  );

  it('logged the rejections a few times, not once per body, and nothing escaped', () => {
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.length).toBeLessThanOrEqual(20);
    expect(failures.seen).toEqual([]);
  });
});
