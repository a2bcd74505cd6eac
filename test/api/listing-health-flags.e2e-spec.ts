import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PrivateRestClient } from 'sandbox-exchange';
import { waitFor } from '../support/fault-run';
import { MetricSample, readMetrics, sampleValue } from '../support/metrics-text';
import { startTestStack, TestStack } from '../support/start-test-stack';
import { expectConverges, readTruth, setFault, Truth } from '../support/truth';

/** A market priced in a reference asset, and one quoted in its base asset, priced only through it. */
const MARKET = 'abc_usdt';
const QUOTED_IN_ABC = 'def_abc';
const MARKETS = [
  {
    baseAsset: 'abc',
    quoteAsset: 'usdt',
    priceScale: 4,
    amountScale: 2,
    minAmount: '0.01',
    priceDeviation: '0.5',
    initialPrice: '10',
    typicalAmount: '500',
  },
  {
    baseAsset: 'def',
    quoteAsset: 'abc',
    priceScale: 6,
    amountScale: 2,
    minAmount: '0.01',
    initialPrice: '0.5',
    typicalAmount: '500',
  },
];
/** The demo user, rich enough to take a whole side of the book in one order. */
const USERS = [
  {
    userId: 1,
    email: 'demo@example.com',
    password: 'demo',
    operator: true,
    balances: { abc: '100000000', usdt: '10000000000', def: '100000000' },
  },
];
const FLAG_WAIT_MS = 20_000;

interface Flag {
  readonly code: string;
  readonly message: string;
}

/**
 * Each flag of `/listing-health` turns on when the sandbox is made to produce its condition, and off
 * when the condition ends. The demo user's orders shape the book with the synthetic flow stopped.
 */
describe('listing-health flags follow the exchange', () => {
  let stack: TestStack;
  let directory: string;
  let client: PrivateRestClient;

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'mdg-listing-health-'));
    writeFileSync(join(directory, 'markets.json'), JSON.stringify(MARKETS));
    writeFileSync(join(directory, 'users.json'), JSON.stringify(USERS));
    stack = await startTestStack({
      redis: false,
      sandbox: {
        SANDBOX_MARKETS_FILE: join(directory, 'markets.json'),
        SANDBOX_USERS_FILE: join(directory, 'users.json'),
        SANDBOX_HISTORY_HOURS: '1',
        SANDBOX_RATE_LIMITS: 'false',
        SANDBOX_FLOW_RATE: '0',
      },
      app: { RATE_LIMIT_PER_MINUTE: '0' },
      tuning: {
        catalogRefreshMs: 1000,
        listingHealthRefreshMs: 100,
        listingStaleTradesMs: 3000,
        listingStaleBookMs: 2000,
      },
    });
    await expectConverges(stack.sandbox, stack.store, [MARKET, QUOTED_IN_ABC], 20_000);
    client = new PrivateRestClient(stack.sandbox.baseUrl);
  });
  afterAll(async () => {
    await stack?.close();
    rmSync(directory, { recursive: true, force: true });
  });

  async function flagsOf(instrument: string): Promise<Flag[]> {
    const response = await fetch(`${stack.app.url}/listing-health/${instrument}`);
    const body = (await response.json()) as { markets: Record<string, { flags: Flag[] }> };
    return body.markets[instrument.toUpperCase()].flags;
  }

  /** Waits for the flag to be on (or off), and returns the market's flags then. */
  /** Waits for `code` to be on (with a message matching `message`, when given) or off. */
  async function expectFlag(
    instrument: string,
    code: string,
    on: boolean,
    message?: RegExp,
  ): Promise<Flag[]> {
    let flags: Flag[] = [];
    const matches = (flag: Flag) => flag.code === code && (!message || message.test(flag.message));
    await waitFor(
      async () => (flags = await flagsOf(instrument)).some(matches) === on,
      `${code} ${on ? 'on' : 'off'} for ${instrument}`,
      FLAG_WAIT_MS,
      100,
    );
    return flags;
  }

  const sumAmounts = (side: Truth['bids']) => side.reduce((sum, [, amount]) => sum + Number(amount), 0);

  /** Sells into every bid of the market: its bid side is empty after. */
  async function takeEveryBid(): Promise<Truth> {
    const truth = await readTruth(stack.sandbox, MARKET);
    const amount = (Math.ceil(sumAmounts(truth.bids)) + 1).toFixed(2);
    await client.placed({ instrument: MARKET, type: 'sell', amount, isLimit: false });
    return readTruth(stack.sandbox, MARKET);
  }

  async function bid(price: number, amount: string): Promise<void> {
    await client.placed({ instrument: MARKET, type: 'buy', amount, price: price.toFixed(4), isLimit: true });
  }

  async function metricsWhen(ready: (samples: MetricSample[]) => boolean): Promise<MetricSample[]> {
    let samples: MetricSample[] = [];
    await waitFor(
      async () => ready((samples = await readMetrics(stack.app.url))),
      'the metrics',
      FLAG_WAIT_MS,
      100,
    );
    return samples;
  }

  const bestAsk = (truth: Truth) => Number(truth.asks[0][0]);

  it('empty_side: a book without bids, then with one', async () => {
    const truth = await takeEveryBid();
    expect(truth.bids).toEqual([]);
    const flags = await expectFlag(MARKET, 'empty_side', true);
    expect(flags.find((flag) => flag.code === 'empty_side')?.message).toBe(
      'the book has no bids: no spread or depth can be measured',
    );
    // The depths come from books read up to a few refreshes ago: wait until they are the new book's.
    const metrics = await metricsWhen(
      (samples) =>
        sampleValue(samples, 'mdg_listing_depth_usd', { market: MARKET, side: 'plus' }) === undefined,
    );
    expect(sampleValue(metrics, 'mdg_listing_flagged_markets', { flag: 'empty_side' })).toBe(1);
    expect(sampleValue(metrics, 'mdg_listing_market_flags', { market: MARKET })).toBeGreaterThanOrEqual(1);
    expect(sampleValue(metrics, 'mdg_listing_spread_percent', { market: MARKET })).toBeUndefined();
    expect(sampleValue(metrics, 'mdg_listing_depth_usd', { market: MARKET, side: 'plus' })).toBeUndefined();

    await bid(bestAsk(truth) * 0.999, '1000');
    await expectFlag(MARKET, 'empty_side', false);
    const after = await metricsWhen(
      (samples) =>
        sampleValue(samples, 'mdg_listing_depth_usd', { market: MARKET, side: 'minus' }) !== undefined,
    );
    expect(sampleValue(after, 'mdg_listing_flagged_markets', { flag: 'empty_side' })).toBe(0);
    expect(sampleValue(after, 'mdg_listing_spread_percent', { market: MARKET })).toBe(0.1);
    expect(sampleValue(after, 'mdg_listing_depth_usd', { market: MARKET, side: 'minus' })).toBeGreaterThan(
      1000,
    );
  });

  it('wide_spread: the best bid 4 % under the best ask, then 0.1 %', async () => {
    const truth = await takeEveryBid();
    await bid(bestAsk(truth) * 0.96, '1000');
    const flags = await expectFlag(MARKET, 'wide_spread', true);
    expect(flags.find((flag) => flag.code === 'wide_spread')?.message).toMatch(
      /^the spread is 4\.\d\d % of the mid, over 2 %$/,
    );
    await bid(bestAsk(truth) * 0.999, '1000');
    await expectFlag(MARKET, 'wide_spread', false);
  });

  it('thin_depth: a bid worth a few dollars within 2 %, then thousands', async () => {
    const truth = await takeEveryBid();
    await bid(bestAsk(truth) * 0.999, '0.5');
    // Until the new bid is seen the book has no bid side: thin_depth is on already, both depths 0.
    const thinBid = /^the -2 % depth is \d\.\d\d USD, under 1000 USD$/;
    const flags = await expectFlag(MARKET, 'thin_depth', true, thinBid);
    expect(flags.find((flag) => flag.code === 'thin_depth')?.message).toMatch(thinBid);
    await bid(bestAsk(truth) * 0.999, '1000');
    await expectFlag(MARKET, 'thin_depth', false);
  });

  it('stale_trades: no trade for longer than the limit, then one', async () => {
    await expectFlag(MARKET, 'stale_trades', true);
    await client.placed({ instrument: MARKET, type: 'buy', amount: '0.01', isLimit: false });
    await expectFlag(MARKET, 'stale_trades', false);
  });

  it('volume_without_depth: a book with nothing near the mid, then a deep one', async () => {
    const truth = await readTruth(stack.sandbox, MARKET);
    const asks = (Math.ceil(sumAmounts(truth.asks)) + 1).toFixed(2);
    await client.placed({ instrument: MARKET, type: 'buy', amount: asks, isLimit: false });
    await takeEveryBid();
    const last = Number((await readTruth(stack.sandbox, MARKET)).trades.at(-1)!.price);
    await bid(last * 0.999, '0.01');
    await client.placed({
      instrument: MARKET,
      type: 'sell',
      amount: '0.01',
      price: (last * 1.001).toFixed(4),
      isLimit: true,
    });
    await expectFlag(MARKET, 'volume_without_depth', true);
    // The day's volume over 50 times, in resting orders on both sides within 2 %.
    const health = await fetch(`${stack.app.url}/listing-health/${MARKET}`);
    const volume = Number(
      ((await health.json()) as { markets: Record<string, { quote_volume_24h: string }> }).markets.ABC_USDT
        .quote_volume_24h,
    );
    const amount = (volume / 50 / last).toFixed(2);
    await bid(last * 0.999, amount);
    await client.placed({
      instrument: MARKET,
      type: 'sell',
      amount,
      price: (last * 1.001).toFixed(4),
      isLimit: true,
    });
    await expectFlag(MARKET, 'volume_without_depth', false);
  });

  it('crossed_book: the exchange stops matching and a bid meets the best ask, then it matches again', async () => {
    await setFault(stack.sandbox, 'stop-matching', true, { instrument: MARKET });
    try {
      await bid(bestAsk(await readTruth(stack.sandbox, MARKET)), '1');
      const flags = await expectFlag(MARKET, 'crossed_book', true);
      expect(flags.find((flag) => flag.code === 'crossed_book')?.message).toMatch(
        /^the best bid (\d+\.\d{4}) is at or above the best ask (\d+\.\d{4}): aggregators take a crossed book for bad data$/,
      );
    } finally {
      await setFault(stack.sandbox, 'stop-matching', false, { instrument: MARKET });
    }
    await expectFlag(MARKET, 'crossed_book', false);
  });

  it('frozen, and no_usd_path for the market priced only through it: halted, then open', async () => {
    await expect(flagsOf(QUOTED_IN_ABC)).resolves.not.toContainEqual(
      expect.objectContaining({ code: 'no_usd_path' }),
    );
    await setFault(stack.sandbox, 'halt-market', true, { instrument: MARKET });
    try {
      await expectFlag(MARKET, 'frozen', true);
      const flags = await expectFlag(QUOTED_IN_ABC, 'no_usd_path', true);
      expect(flags.find((flag) => flag.code === 'no_usd_path')?.message).toBe(
        'no listed market prices ABC in USD, USDT, USDC, directly or through one other asset',
      );
    } finally {
      await setFault(stack.sandbox, 'halt-market', false, { instrument: MARKET });
    }
    await expectFlag(MARKET, 'frozen', false);
    await expectFlag(QUOTED_IN_ABC, 'no_usd_path', false);
  });

  it('stale_book: the upstream connections dropped, then back', async () => {
    await setFault(stack.sandbox, 'drop-connections', true);
    try {
      await expectFlag(MARKET, 'stale_book', true);
    } finally {
      await setFault(stack.sandbox, 'drop-connections', false);
    }
    await expectFlag(MARKET, 'stale_book', false);
  });
});
