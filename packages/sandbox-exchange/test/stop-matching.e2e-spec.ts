import { HubConnection } from '@microsoft/signalr';
import { parseUnits } from '../src/engine/units';
import { RunningSandbox } from '../src/start-sandbox';
import { PrivateRestClient } from '../src/trader/private-rest-client';
import { parseExactJson } from '../src/wire/exact-json';
import { BookItem, BookMirror, hubClient, plainBook, waitFor } from './hub-test-support';
import { startTestSandbox } from './support/start-test-sandbox';

jest.setTimeout(20_000);

const INSTRUMENT = 'btc_usdt';

interface TruthTop {
  /** Best bid and best ask in price units. */
  readonly bid: bigint;
  readonly ask: bigint;
  readonly version: number;
  /** Trade ids of the last 24 hours. */
  readonly tradeIds: number[];
  /** Taker order ids of those trades. */
  readonly takerOrderIds: number[];
}

describe('the stop-matching fault', () => {
  let sandbox: RunningSandbox;
  let hub: HubConnection;
  let demo: PrivateRestClient;
  const mirror = new BookMirror();

  async function truth(): Promise<TruthTop> {
    const response = await fetch(`${sandbox.baseUrl}/sandbox/truth/${INSTRUMENT}`);
    const body = parseExactJson(await response.text()) as unknown as {
      book: { bids: { price: string }[]; asks: { price: string }[]; version: string };
      trades: string[][];
    };
    const scale = sandbox.exchange.market(INSTRUMENT)!.spec.priceScale;
    return {
      // Both sides ascending, as the depth call sends them.
      bid: parseUnits(body.book.bids.at(-1)!.price, scale),
      ask: parseUnits(body.book.asks[0].price, scale),
      version: Number(body.book.version),
      tradeIds: body.trades.map((row) => Number(row[0])),
      takerOrderIds: body.trades.map((row) => Number(row[5])),
    };
  }

  async function switchFault(enabled: boolean): Promise<{ status: number; body: unknown }> {
    const response = await fetch(`${sandbox.baseUrl}/sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'stop-matching',
        enabled,
        ...(enabled ? { instrument: INSTRUMENT } : {}),
      }),
    });
    return { status: response.status, body: await response.json() };
  }

  async function mirrorEqualsMarket(): Promise<void> {
    const market = sandbox.exchange.market(INSTRUMENT)!;
    await waitFor(() => mirror.version === market.version, 'the hub at the market version');
    expect(mirror.book).toEqual(plainBook(market));
  }

  const text = (units: bigint) => {
    const scale = sandbox.exchange.market(INSTRUMENT)!.spec.priceScale;
    const digits = units.toString().padStart(scale + 1, '0');
    return `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  };

  beforeAll(async () => {
    sandbox = await startTestSandbox({ SANDBOX_FLOW_RATE: '0', SANDBOX_RATE_LIMITS: 'false' });
    demo = new PrivateRestClient(sandbox.baseUrl);
    hub = hubClient(sandbox.baseUrl);
    await hub.start();
    mirror.follow(hub.stream<BookItem>('Book', INSTRUMENT));
    await waitFor(() => mirror.snapshots.length === 1, 'the hub snapshot');
  });

  afterAll(async () => {
    mirror.dispose();
    await hub?.stop();
    await sandbox?.close();
  });

  it('lets a quiet book cross with a user order, publishes it, and uncrosses with trades when switched off', async () => {
    const before = await truth();
    expect(before.bid).toBeLessThan(before.ask);

    expect(await switchFault(true)).toEqual({
      status: 200,
      body: {
        name: 'stop-matching',
        enabled: true,
        description: expect.any(String),
        params: { instrument: INSTRUMENT },
      },
    });

    // The recipe for a crossed book with the flow at 0: a limit buy at the best ask rests instead of trading.
    const crossing = await demo.placed({
      instrument: INSTRUMENT,
      type: 'buy',
      amount: '0.01',
      price: text(before.ask),
      isLimit: true,
    });
    expect(crossing).toMatchObject({ status: 'Working', remaining: '0.01', unitsFilled: '0' });
    const marketBuy = await demo.placed({
      instrument: INSTRUMENT,
      type: 'buy',
      amount: '0.01',
      isLimit: false,
    });
    expect(marketBuy).toMatchObject({ status: 'Cancelled', unitsFilled: '0' });

    // The synthetic flow crosses it further (aggressive limit orders rest too) and trades nothing.
    await fetch(`${sandbox.baseUrl}/sandbox/markets/${INSTRUMENT}/step`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ count: 200 }),
    });
    const crossed = await truth();
    expect(crossed.bid).toBeGreaterThanOrEqual(crossed.ask);
    expect(crossed.tradeIds).toEqual(before.tradeIds);
    await mirrorEqualsMarket();

    expect((await switchFault(false)).status).toBe(200);

    const after = await truth();
    expect(after.bid).toBeLessThan(after.ask);
    expect(after.version).toBe(crossed.version + 1);
    const newTrades = after.tradeIds.length - before.tradeIds.length;
    expect(newTrades).toBeGreaterThan(0);
    expect(after.tradeIds.slice(0, before.tradeIds.length)).toEqual(before.tradeIds);
    await mirrorEqualsMarket();
    // Higher bids uncross first, each at the price of the older order; with this seed enough asks at or
    // below the demo's price are left for it.
    const order = await demo.order(crossing.orderId);
    expect(order.body).toMatchObject({ order: { status: 'Completed', remaining: '0' } });
  });
});
