import { canonicalDecimal } from '../../src/market/decimal';
import { Side } from 'sandbox-exchange';
import { formatUnits } from '../../src/market/fixed-point';
import { expectOk, PrivateRestClient } from 'sandbox-exchange';
import { startTestStack, TestStack } from '../support/start-test-stack';
import { expectConverges } from '../support/truth';

const INSTRUMENT = 'btc_usdt';
const POLL_MS = 5;
const TIMEOUT_MS = 10_000;

/** Polls until `check` holds; returns the milliseconds it took from `since`. */
async function lagUntil(since: number, what: string, check: () => Promise<boolean>): Promise<number> {
  for (;;) {
    if (await check()) return Date.now() - since;
    if (Date.now() - since > TIMEOUT_MS) throw new Error(`${what} not seen within ${TIMEOUT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

describe('an order placed through the private REST reaches the listing endpoints', () => {
  let stack: TestStack;
  let client: PrivateRestClient;

  beforeAll(async () => {
    stack = await startTestStack({
      sandbox: { SANDBOX_FLOW_RATE: '0', SANDBOX_RATE_LIMITS: 'false' },
      redis: false,
    });
    await expectConverges(stack.sandbox, stack.store, [INSTRUMENT], 15_000);
    client = new PrivateRestClient(stack.sandbox.baseUrl);
  });

  afterAll(async () => {
    await stack?.close();
  });

  const getJson = async <T>(path: string): Promise<T> => {
    const response = await fetch(`${stack.app.url}${path}`);
    if (!response.ok) throw new Error(`${path}: ${response.status}`);
    return (await response.json()) as T;
  };

  it('a resting order shows in /orderbook, its fill in /trades and /summary; the lags are reported', async () => {
    const market = stack.sandbox.exchange.market(INSTRUMENT)!;
    const bid = market.bestPrice(Side.Buy)!;
    const ask = market.bestPrice(Side.Sell)!;
    expect(ask - bid).toBeGreaterThan(1n);
    // Inside the spread: the new best ask, at a price no other order has.
    const price = formatUnits(bid + (ask - bid) / 2n, market.spec.priceScale);
    const amount = '0.0375';

    const placedAt = Date.now();
    const resting = await client.placed({
      instrument: INSTRUMENT,
      type: 'sell',
      amount,
      price,
      isLimit: true,
    });
    expect(resting.status).toBe('Working');
    const bookLag = await lagUntil(placedAt, 'the order in /orderbook', async () => {
      const book = await getJson<{ asks: [string, string][] }>(`/orderbook/${INSTRUMENT}?level=1`);
      const best = book.asks[0];
      return (
        best !== undefined && canonicalDecimal(best[0]) === price && canonicalDecimal(best[1]) === amount
      );
    });

    const filledAt = Date.now();
    const taker = await client.placed({ instrument: INSTRUMENT, type: 'buy', amount, price, isLimit: true });
    expect(taker.status).toBe('Completed');
    const [trade] = expectOk(await client.tradeHistory({ orderId: taker.orderId })).data;
    expect(trade).toMatchObject({ executionPrice: price, amount });

    const tradesLag = await lagUntil(filledAt, 'the fill in /trades', async () => {
      const trades = await getJson<{ tradeID: string; price: string; base_volume: string; type: string }[]>(
        `/trades/${INSTRUMENT}`,
      );
      const listed = trades.find((row) => String(row.tradeID) === trade.tradeSeq);
      return (
        listed !== undefined &&
        canonicalDecimal(listed.price) === price &&
        canonicalDecimal(listed.base_volume) === amount &&
        listed.type === 'buy'
      );
    });
    const summaryLag = await lagUntil(filledAt, 'the fill in /summary', async () => {
      const summary = await getJson<Record<string, { last: string }>>('/summary');
      return canonicalDecimal(summary[INSTRUMENT.toUpperCase()].last) === price;
    });
    const bookGoneLag = await lagUntil(filledAt, 'the filled order leaving /orderbook', async () => {
      const book = await getJson<{ asks: [string, string][] }>(`/orderbook/${INSTRUMENT}?level=1`);
      return book.asks[0] !== undefined && canonicalDecimal(book.asks[0][0]) !== price;
    });

    // A measurement, printed only when asked for: by default the run prints nothing but Jest's own.
    if (process.env.LAG_REPORT)
      process.stdout.write(
        `Private order to listing lag (poll every ${POLL_MS} ms): /orderbook ${bookLag} ms, /trades ${tradesLag} ms, ` +
          `/summary ${summaryLag} ms, filled order gone from /orderbook ${bookGoneLag} ms\n`,
      );
  });
});
