import { Decimal } from '../../src/market/decimal';
import { RunningSandbox } from 'sandbox-exchange';
import { parseExactJson } from '../../src/upstream/exact-json';
import { RestClient } from '../../src/upstream/rest/rest-client';
import { TokenBucketBudget } from '../../src/upstream/rest/token-bucket-budget';
import { startTestSandbox } from '../support/start-test-sandbox';

// The tests wait for the exchange's rate limits on purpose; together they take about 10 s.
jest.setTimeout(30_000);

interface FamilyStats {
  readonly served: number;
  readonly limited: number;
  readonly failed: number;
}

type Stats = Record<'frontoffice' | 'marketdata', FamilyStats>;

/* eslint-disable @typescript-eslint/no-explicit-any -- the sandbox's own answers are read field by field */

/** The control endpoints are outside the REST families, so reading them costs no budget. */
async function control(sandbox: RunningSandbox, path: string): Promise<any> {
  const response = await fetch(sandbox.baseUrl + path);
  expect(response.status).toBe(200);
  return parseExactJson(await response.text());
}

const canonical = (text: string) => new Decimal(text).toFixed();

describe('RestClient against the sandbox exchange', () => {
  let sandbox: RunningSandbox;
  let client: RestClient;
  let statsBefore: Stats;

  beforeAll(async () => {
    // No synthetic flow: books and trades hold still, so answers can be compared with the truth.
    sandbox = await startTestSandbox({ SANDBOX_FLOW_RATE: '0', SANDBOX_HISTORY_HOURS: '0.25' });
    // One budget for the whole file, as one process has: the sandbox counts per address across tests.
    // A single attempt per call, so that any 429 would fail the call instead of being retried away.
    client = new RestClient({
      baseUrl: `${sandbox.baseUrl}/`,
      budget: new TokenBucketBudget(),
      retry: { maxAttempts: 1 },
    });
    statsBefore = (await control(sandbox, '/sandbox/stats')) as Stats;
  });

  afterAll(async () => {
    const after = (await control(sandbox, '/sandbox/stats')) as Stats;
    await sandbox.close();
    // Every call of every test went through the one budget and none was refused by the rate limit.
    expect(Number(after.frontoffice.limited) - Number(statsBefore.frontoffice.limited)).toBe(0);
    expect(Number(after.marketdata.limited) - Number(statsBefore.marketdata.limited)).toBe(0);
  });

  it('reads every market of the info with its parameters', async () => {
    const before = Date.now();
    const info = await client.info();
    expect(info.skipped).toEqual([]);
    expect(info.serverTime).toBeGreaterThanOrEqual(before - 1000);
    expect(info.serverTime).toBeLessThanOrEqual(Date.now() + 1000);
    const specs = sandbox.exchange.all().map((market) => market.spec);
    expect(info.markets.map((market) => market.instrument).sort()).toEqual(
      specs.map((spec) => spec.instrument).sort(),
    );
    for (const spec of specs) {
      const { exchangeRecord, ...market } = info.markets.find(
        (candidate) => candidate.instrument === spec.instrument,
      )!;
      expect(JSON.parse(exchangeRecord ?? '{}')).toMatchObject({
        baseAsset: spec.baseAsset,
        priceScale: spec.priceScale,
      });
      expect(market).toEqual({
        instrument: spec.instrument,
        baseAsset: spec.baseAsset,
        quoteAsset: spec.quoteAsset,
        priceScale: spec.priceScale,
        amountScale: spec.amountScale,
        minAmount: canonical(spec.minAmount),
        priceDeviation: canonical(spec.priceDeviation),
        makerFee: canonical(spec.makerFee),
        takerFee: canonical(spec.takerFee),
        hidden: spec.hidden === 1,
        status: spec.status,
        side: spec.side,
        isCustom: spec.isCustom,
        createdAt: spec.createdAt.endsWith('Z') ? spec.createdAt : `${spec.createdAt}Z`,
        updatedAt: spec.updatedAt.endsWith('Z') ? spec.updatedAt : `${spec.updatedAt}Z`,
      });
    }
    expect(info.markets.some((market) => market.hidden)).toBe(true);
    expect(new Set(info.markets.map((market) => market.status))).toEqual(
      new Set(['Open', 'Halted', 'Paused']),
    );
  });

  it('reads the depth of every market exactly as the sandbox holds it', async () => {
    const instruments = sandbox.exchange.all().map((market) => market.instrument);
    const books = await Promise.all(instruments.map((instrument) => client.depth(instrument)));
    for (const [index, book] of books.entries()) {
      const truth = (await control(sandbox, `/sandbox/truth/${instruments[index]}`)).book;
      expect(book.instrument).toBe(instruments[index]);
      expect(book.snapshot).toBe(true);
      expect(book.version).toBe(Number(truth.version));
      const levels = (side: 'bid' | 'ask', entries: { price: string; amount: string }[]) =>
        entries.map((entry) => ({ side, price: canonical(entry.price), amount: canonical(entry.amount) }));
      expect(book.updates).toEqual([...levels('bid', truth.bids), ...levels('ask', truth.asks)]);
      expect(book.updates.length).toBeGreaterThan(0);
    }
  });

  it('reads candles whose volumes add up to the trades of the range', async () => {
    const end = Date.now();
    const start = end - 900_000;
    const candles = await client.history('btc_usdt', { start, end, interval: '1m' });
    expect(candles.length).toBeGreaterThan(0);
    for (const [index, candle] of candles.entries()) {
      expect(candle.end - candle.start).toBe(60_000);
      if (index > 0) expect(candle.start).toBeGreaterThan(candles[index - 1].start);
      expect(new Decimal(candle.low).lte(candle.open) && new Decimal(candle.open).lte(candle.high)).toBe(
        true,
      );
    }
    // The query is sent in whole seconds, widened outwards.
    const from = Math.floor(start / 1000) * 1000;
    const to = Math.ceil(end / 1000) * 1000;
    const trades = (await control(sandbox, '/sandbox/truth/btc_usdt')).trades as string[][];
    const inRange = trades.filter((row) => Number(row[6]) >= from && Number(row[6]) < to);
    const tradedVolume = inRange.reduce((sum, row) => sum.plus(row[2]), new Decimal('0'));
    const candleVolume = candles.reduce((sum, candle) => sum.plus(candle.volume), new Decimal('0'));
    expect(candleVolume.toFixed()).toBe(tradedVolume.toFixed());

    const newest = await client.history('btc_usdt', { start, end, interval: '1m', count: 3 });
    expect(newest).toEqual(candles.slice(-3));
  });

  it('keeps a burst of calls of both families within the rate limits', async () => {
    const started = performance.now();
    const calls = [
      client.info(),
      client.info(),
      client.depth('btc_usdt'),
      client.depth('eth_btc'),
      client.depth('pepe_eth'),
      client.history('eth_usdt', { start: Date.now() - 600_000, end: Date.now(), interval: '5m' }),
    ];
    await expect(Promise.all(calls)).resolves.toHaveLength(calls.length);
    // Two /frontoffice/ calls need a second window; the earlier tests' calls may add one more.
    expect(performance.now() - started).toBeGreaterThanOrEqual(1000);
  });
});
