import request from 'supertest';
import { formatUnits } from '../../src/market/fixed-point';
import { RunningSandbox } from 'sandbox-exchange';
import { waitFor } from '../support/fault-run';
import { startTestStack, TestStack } from '../support/start-test-stack';
import { setFlow } from '../support/truth';
import { fixed, settle } from './expected-figures';

type Row = Record<string, unknown>;

const HOUR = 3_600_000;
/** Halted, and given trades 30 hours ago only: its window is empty, its last price is not. */
const TRADED_BEFORE = 'ltc_btc';
const TRADED_BEFORE_SCALE = 7;
/** Paused and never traded. */
const NEVER_TRADED = 'xrp_usdt';
const ZERO = /^0(\.0+)?$/;

/**
 * Runs synthetic operations on a market at a time 30 hours back until it has traded, and returns its
 * newest trade's price as the sandbox writes it.
 */
function tradeLongAgo(sandbox: RunningSandbox): string {
  const market = sandbox.exchange.market(TRADED_BEFORE)!;
  const time = Date.now() - 30 * HOUR;
  for (let step = 0; step < 10_000 && market.tradeLog.last() === undefined; step++) market.step(time);
  const last = market.tradeLog.last();
  if (!last) throw new Error(`${TRADED_BEFORE} did not trade`);
  return formatUnits(last.price, TRADED_BEFORE_SCALE);
}

/** Every format's last price of each market: /summary, /ticker, then the aggregators' (null where they leave it out). */
async function lastPrices(stack: TestStack): Promise<Map<string, unknown[]>> {
  const body = async (path: string) => (await request(stack.app.url).get(path).expect(200)).body;
  const [summary, ticker, cmcSummary, cmcTicker, tickers] = await Promise.all([
    body('/summary'),
    body('/ticker'),
    body('/cmc/summary'),
    body('/cmc/ticker'),
    body('/coingecko/tickers'),
  ]);
  const prices = new Map<string, unknown[]>();
  for (const instrument of Object.keys(ticker)) {
    const pair = instrument.toUpperCase();
    prices.set(instrument, [
      summary[pair].last,
      ticker[instrument].last_price,
      (cmcSummary as Row[]).find((record) => record.trading_pairs === pair)?.last_price ?? null,
      cmcTicker[pair]?.last_price ?? null,
      (tickers as Row[]).find((record) => record.ticker_id === pair)?.last_price ?? null,
    ]);
  }
  return prices;
}

function describeLastPrices(name: string, credentials: boolean): void {
  describe(name, () => {
    let stack: TestStack;
    let traded: string;

    beforeAll(async () => {
      stack = await startTestStack({
        redis: false,
        credentials,
        prepareSandbox: (sandbox) => {
          traded = fixed(tradeLongAgo(sandbox), TRADED_BEFORE_SCALE);
        },
      });
      await waitFor(
        // Ready once every listed book is live; the listing answers 503 until its first state is loaded.
        async () =>
          (await fetch(`${stack.app.url}/health/ready`)).status === 200 &&
          (await lastPrices(stack).catch(() => undefined))?.get(TRADED_BEFORE)?.[2] === traded,
        `${TRADED_BEFORE} priced`,
        30_000,
        100,
      );
    }, 60_000);
    afterAll(async () => {
      await setFlow(stack.sandbox, 0);
      await stack.close();
    });

    it("gives a market whose trades are all older than 24 hours a zero last (spec 2.8) and the aggregators' formats its last traded price", async () => {
      const zero = fixed('0', TRADED_BEFORE_SCALE);
      expect((await lastPrices(stack)).get(TRADED_BEFORE)).toEqual([zero, zero, traded, traded, traded]);
      const summary = (await request(stack.app.url).get('/summary').expect(200)).body[
        TRADED_BEFORE.toUpperCase()
      ];
      expect(summary).toMatchObject({ baseVolume: '0.0000', high24hr: '0.0000000', percentChange: '0.00' });
      expect(summary.isFrozen).toBe('1');
      const cmc = (await request(stack.app.url).get('/cmc/ticker').expect(200)).body;
      expect(cmc[TRADED_BEFORE.toUpperCase()]).toMatchObject({ last_price: traded, isFrozen: 1 });
    });

    it('gives a market that never traded a zero last in the listing format, and leaves it out of the aggregator tickers', async () => {
      const prices = (await lastPrices(stack)).get(NEVER_TRADED)!;
      expect(prices.slice(0, 2).every((price) => typeof price === 'string' && ZERO.test(price))).toBe(true);
      expect(prices.slice(2)).toEqual([null, null, null]);
      const summary = (await request(stack.app.url).get('/summary').expect(200)).body;
      expect(summary[NEVER_TRADED.toUpperCase()].highestBid).not.toMatch(ZERO);
      const pairs = (await request(stack.app.url).get('/coingecko/pairs').expect(200)).body as Row[];
      expect(pairs.map((pair) => pair.ticker_id)).toContain(NEVER_TRADED.toUpperCase());
    });

    it('gives no aggregator format a zero last price, and the listing format only decimal strings', async () => {
      for (const prices of (await lastPrices(stack)).values()) {
        for (const price of prices.slice(0, 2)) expect(price).toMatch(/^\d+\.\d+$/);
        for (const price of prices.slice(2)) if (price !== null) expect(price).not.toMatch(ZERO);
      }
    });

    if (credentials)
      it("gives every market's listing last the price of its newest trade in 24 hours", async () => {
        // Paused and served as the sandbox holds it: the listing and the trades are read at one state.
        await setFlow(stack.sandbox, 0);
        await settle(stack);
        for (const [instrument, prices] of await lastPrices(stack)) {
          const trades = (await request(stack.app.url).get(`/trades/${instrument}`).expect(200))
            .body as Row[];
          if (trades.length > 0) expect(prices.slice(0, 2)).toEqual([trades[0].price, trades[0].price]);
          else expect(prices.slice(0, 2).map((price) => ZERO.test(String(price)))).toEqual([true, true]);
        }
      });
  });
}

describeLastPrices('last prices with the trade feed, whose snapshot reaches past the 24 hours', true);
describeLastPrices("last prices without a trade feed, from Level 1's last traded price", false);
