import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Side } from '../src/engine/side';
import { formatUnits } from '../src/engine/units';
import { RunningSandbox } from '../src/start-sandbox';
import {
  DEMO_PRIVATE_KEY,
  ErrorReply,
  expectOk,
  OrderReply,
  PrivateRestClient,
  sign,
  StopOrderReply,
} from '../src/trader/private-rest-client';
import { startTestSandbox } from './support/start-test-sandbox';
import { readTruth } from './support/truth';

const POOR_KEY = '00000000-0000-4000-8000-000000000002';

describe('sandbox private REST', () => {
  let sandbox: RunningSandbox;
  let dir: string;
  let demo: PrivateRestClient;
  let poor: PrivateRestClient;

  /** Best bid and ask of btc_usdt as decimal text. */
  function top(): { bid: bigint; ask: bigint; text: (units: bigint) => string } {
    const market = sandbox.exchange.market('btc_usdt')!;
    return {
      bid: market.bestPrice(Side.Buy)!,
      ask: market.bestPrice(Side.Sell)!,
      text: (units) => formatUnits(units, 2),
    };
  }

  function errorOf(reply: { status: number; body: unknown }): [number, string] {
    return [reply.status, (reply.body as ErrorReply).errors[0].code];
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'private-rest-'));
    const usersFile = join(dir, 'users.json');
    writeFileSync(
      usersFile,
      JSON.stringify([
        { userId: 1, email: 'demo@example.com', password: 'demo', operator: true },
        { userId: 2, email: 'poor@example.com', password: 'poor', balances: { usdt: '100', btc: '0.001' } },
      ]),
    );
    sandbox = await startTestSandbox({
      SANDBOX_FLOW_RATE: '0',
      SANDBOX_RATE_LIMITS: 'false',
      SANDBOX_USERS_FILE: usersFile,
    });
    demo = new PrivateRestClient(sandbox.baseUrl);
    poor = new PrivateRestClient(sandbox.baseUrl, POOR_KEY, DEMO_PRIVATE_KEY);
  });

  afterAll(async () => {
    await sandbox?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('places a resting limit order that the public book shows, reads, lists and cancels it', async () => {
    const { bid, text } = top();
    const clientOrderId = '0b9e1f3a-5c4d-4e2f-9a8b-7c6d5e4f3a21';
    const price = text(bid - 500n);
    const levelAmount = async () =>
      Number((await readTruth(sandbox, 'btc_usdt')).bids.find(([level]) => level === price)?.[1] ?? 0);
    const before = await levelAmount();
    const order = await demo.placed({
      instrument: 'btc_usdt',
      type: 'buy',
      amount: '0.25',
      price,
      isLimit: true,
      clientOrderId,
    });
    expect(order).toMatchObject({
      status: 'Working',
      isPending: true,
      unitsFilled: '0',
      remaining: '0.25',
      amount: '0.25',
      requestedPrice: price,
      isLimit: true,
      instrument: 'btc_usdt',
      side: '0',
      type: 'buy',
      orderType: '0',
      timeInForce: '0',
      source: '0',
      clientOrderId,
    });
    expect(order.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(await levelAmount()).toBeCloseTo(before + 0.25, 8);

    expect(expectOk(await demo.order(order.orderId)).order.orderId).toBe(order.orderId);
    expect(expectOk(await demo.order(clientOrderId)).order.orderId).toBe(order.orderId);
    expect(expectOk(await demo.myOrders()).map((open) => open.orderId)).toContain(order.orderId);
    const usdt = expectOk(await demo.balances()).find((balance) => balance.asset === 'usdt')!;
    // 0.25 x price x (1 + 0.002): the larger of the maker and taker fees
    expect(Number(usdt.locked)).toBeCloseTo(Number(price) * 0.25 * 1.002, 6);

    const cancelled = expectOk(await demo.cancelOrder(clientOrderId)).order;
    expect(cancelled).toMatchObject({ orderId: order.orderId, status: 'Cancelled', isPending: false });
    expect(await levelAmount()).toBeCloseTo(before, 8);
    expect(errorOf(await demo.cancelOrder(order.orderId))).toEqual([400, 'order_not_open']);
    expect(errorOf(await demo.cancelOrder('123'))).toEqual([404, 'order_not_found']);
    expect(errorOf(await demo.order('123'))).toEqual([404, 'order_not_found']);
    expect(expectOk(await demo.balances()).find((balance) => balance.asset === 'usdt')!.locked).toBe('0');
  });

  it('fills a market order on the public tape and reports it in order and trade history', async () => {
    const order = await demo.placed({ instrument: 'btc_usdt', type: 'buy', amount: '0.5', isLimit: false });
    expect(['Completed', 'Cancelled']).toContain(order.status);
    expect(Number(order.unitsFilled)).toBeGreaterThan(0);
    expect(order.orderType).toBe('1');

    const trades = expectOk(await demo.tradeHistory({ orderId: order.orderId, AscOrder: 'TradeSeq' }));
    expect(trades.data.length).toBeGreaterThan(0);
    const filled = trades.data.reduce((sum, trade) => sum + Number(trade.amount), 0);
    expect(filled).toBeCloseTo(Number(order.unitsFilled), 8);
    const seqs = trades.data.map((trade) => Number(trade.tradeSeq));
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    const tape = (await readTruth(sandbox, 'btc_usdt')).trades.map((trade) => trade.id);
    for (const trade of trades.data) {
      expect(tape).toContain(trade.tradeSeq);
      expect(trade).toMatchObject({ instrument: 'btc_usdt', side: '0', orderId: order.orderId });
    }
    expect(trades.filters).toMatchObject({ orderId: order.orderId, ascOrder: 'TradeSeq' });

    const history = expectOk(await demo.orderHistory({ market: 'btc_usdt', side: 'buy', perPage: 1 }));
    expect(history.paging).toMatchObject({ page: '1', per_page: '1' });
    expect(Number(history.paging.total)).toBeGreaterThanOrEqual(2);
    expect(history.data.map((row) => row.orderId)).toEqual([order.orderId]);
    const hidden = expectOk(await demo.orderHistory({ isHideCanceled: true, perPage: 100 }));
    expect(hidden.data.every((row) => row.status !== 'Cancelled')).toBe(true);
    const cancelled = expectOk(
      await demo.orderHistory({ status: 'Cancelled', AscOrder: 'OrderId', perPage: 100 }),
    );
    expect(cancelled.data.every((row) => row.status === 'Cancelled')).toBe(true);
    const ids = cancelled.data.map((row) => Number(row.orderId));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(errorOf(await demo.orderHistory({ AscOrder: 'OrderId', DescOrder: 'Amount' }))).toEqual([
      400,
      'bad_request',
    ]);
    expect(errorOf(await demo.orderHistory({ status: 'Gone' }))).toEqual([400, 'bad_request']);
  });

  it('rejects by the market rules and the balance, each with a status and the error body', async () => {
    const { bid, ask, text } = top();
    const limitBuy = (amount: string, price: string, instrument = 'btc_usdt') => ({
      instrument,
      type: 'buy' as const,
      amount,
      price,
      isLimit: true,
    });
    expect(errorOf(await demo.placeOrder(limitBuy('0.00001', text(bid))))).toEqual([
      400,
      'amount_below_minimum',
    ]);
    expect(errorOf(await demo.placeOrder(limitBuy('0.01', text((ask * 12n) / 10n))))).toEqual([
      400,
      'price_deviation',
    ]);
    expect(errorOf(await poor.placeOrder(limitBuy('0.01', text(bid))))).toEqual([
      400,
      'insufficient_balance',
    ]);
    expect(errorOf(await demo.placeOrder(limitBuy('1', '0.001', 'ltc_btc')))).toEqual([400, 'market_halted']);
    expect(errorOf(await demo.placeOrder(limitBuy('10', '0.5', 'xrp_usdt')))).toEqual([400, 'market_paused']);
    expect(errorOf(await demo.placeOrder(limitBuy('1', '1', 'nope_usdt')))).toEqual([400, 'unknown_market']);

    const rejected = await demo.orderHistory({ status: 'Rejected', perPage: 100 });
    expect(expectOk(rejected).data.map((row) => row.rejectDetails)).toEqual(
      expect.arrayContaining([expect.stringContaining('halted'), expect.stringContaining('minimum')]),
    );

    const clientOrderId = '9d3c2b1a-0f9e-4d8c-b7a6-958473625140';
    await demo.placed({ ...limitBuy('0.01', text(bid - 1000n)), clientOrderId });
    expect(errorOf(await demo.placeOrder({ ...limitBuy('0.01', text(bid - 1000n)), clientOrderId }))).toEqual(
      [400, 'duplicate_client_order_id'],
    );
    expect(
      errorOf(
        await demo.placeOrder({
          ...limitBuy('0.01', text(bid)),
          clientOrderId: '00000000-0000-0000-0000-000000000000',
        }),
      ),
    ).toEqual([400, 'invalid_order']);
    expect(errorOf(await demo.placeOrder(limitBuy('0.001', '60000.001')))).toEqual([400, 'invalid_order']);
    expect(
      errorOf(await demo.post('/frontoffice/api/order', { order: { instrument: 'btc_usdt', amount: 1 } })),
    ).toEqual([400, 'bad_request']);
    const stopThroughOrder = await demo.post<ErrorReply>('/frontoffice/api/order', {
      order: {
        instrument: 'btc_usdt',
        type: 'buy',
        amount: 1,
        price: 1,
        isLimit: true,
        isStop: true,
        activationPrice: 1,
      },
    });
    expect(stopThroughOrder.status).toBe(500);
    expect(stopThroughOrder.body.errors[0]).toEqual({
      code: 'unexpected',
      message: expect.stringContaining('Stop orders'),
    });
  });

  it('refuses a request that is not signed right, is stale or replays a nonce', async () => {
    const stale = new Date(Date.now() - 5_000).toISOString();
    expect(errorOf(await demo.call('GET', '/frontoffice/api/balances', {}, { ts: stale }))).toEqual([
      401,
      'invalid_ts',
    ]);
    const ahead = new Date(Date.now() + 6_000).toISOString();
    expect(errorOf(await demo.post('/frontoffice/api/order', { order: {} }, { ts: ahead }))).toEqual([
      401,
      'invalid_ts',
    ]);
    expect(
      errorOf(await demo.call('GET', '/frontoffice/api/balances', {}, { sign: 'AB'.repeat(64) })),
    ).toEqual([401, 'invalid_signature']);
    const body = JSON.stringify({ ts: new Date().toISOString(), nonce: 7, order: {} });
    expect(
      errorOf(
        await demo.post(
          '/frontoffice/api/order',
          {},
          { bodyText: body, sign: sign(DEMO_PRIVATE_KEY, `${body} `) },
        ),
      ),
    ).toEqual([401, 'invalid_signature']);
    expect(
      errorOf(
        await demo.call(
          'GET',
          '/frontoffice/api/balances',
          {},
          { key: '00000000-0000-4000-8000-000000000099' },
        ),
      ),
    ).toEqual([401, 'invalid_key']);
    const unsigned = await fetch(
      `${sandbox.baseUrl}/frontoffice/api/balances?ts=${new Date().toISOString()}&nonce=1`,
    );
    expect(unsigned.status).toBe(401);
    expect(((await unsigned.json()) as ErrorReply).errors[0].code).toBe('unauthorized');

    const nonce = String(Date.now() * 1000 + 777);
    expect((await demo.call('GET', '/frontoffice/api/balances', {}, { nonce })).status).toBe(200);
    expect(errorOf(await demo.call('GET', '/frontoffice/api/balances', {}, { nonce }))).toEqual([
      401,
      'nonce_reused',
    ]);
    expect(errorOf(await demo.call('GET', '/frontoffice/api/balances', {}, { nonce: 'x1' }))).toEqual([
      400,
      'bad_request',
    ]);
    // a lower-case signature is accepted, as some of the exchange's samples send one
    const search = `?ts=${encodeURIComponent(new Date().toISOString())}&nonce=${Date.now() * 1000 + 999}`;
    const lower = await fetch(`${sandbox.baseUrl}/frontoffice/api/balances${search}`, {
      headers: { Key: demo.publicKey, Sign: sign(DEMO_PRIVATE_KEY, search).toLowerCase() },
    });
    expect(lower.status).toBe(200);
  });

  it('creates, lists, reads and deletes stop orders, and activates one when the last price reaches it', async () => {
    const { bid, ask, text } = top();
    const waiting: StopOrderReply[] = [];
    for (const amount of ['0.002', '0.001']) {
      const created = expectOk(
        await demo.createStopOrder({
          marketId: 'btc_usdt',
          orderType: 'limit',
          side: 'sell',
          requestedPrice: text(bid - 2000n),
          activationPrice: text(bid - 1000n),
          requestedAmount: amount,
          timeInForce: 'gtc',
        }),
      ).order;
      expect(created).toMatchObject({
        status: 'WaitingForActivation',
        orderType: 'Limit',
        side: 'sell',
        marketId: 'btc_usdt',
      });
      waiting.push(created);
    }
    const listed = expectOk(
      await demo.stopOrders({ status: 'WaitingForActivation', sort: '+RequestedAmount' }),
    );
    expect(listed.map((stop) => stop.requestedAmount)).toEqual(['0.001', '0.002']);
    expect(
      expectOk(await demo.stopOrders({ sort: '-OrderId', perPage: 1 })).map((stop) => stop.orderId),
    ).toEqual([waiting[1].orderId]);
    expect(expectOk(await demo.stopOrder(waiting[0].orderId)).order.orderId).toBe(waiting[0].orderId);
    expect(expectOk(await demo.deleteStopOrder(waiting[0].orderId)).order.orderId).toBe(waiting[0].orderId);
    expect(errorOf(await demo.stopOrder(waiting[0].orderId))).toEqual([404, 'stop_order_not_found']);
    expect(errorOf(await demo.deleteStopOrder(waiting[0].orderId))).toEqual([404, 'stop_order_not_found']);
    expect(errorOf(await demo.stopOrders({ sort: 'Price' }))).toEqual([400, 'bad_request']);
    await demo.deleteStopOrder(waiting[1].orderId);

    const stop = expectOk(
      await demo.createStopOrder({
        marketId: 'btc_usdt',
        orderType: 'market',
        side: 'buy',
        requestedPrice: '0',
        activationPrice: text(ask),
        requestedAmount: '0.01',
        timeInForce: 'ioc',
      }),
    ).order;
    await demo.placed({
      instrument: 'btc_usdt',
      type: 'buy',
      amount: '0.001',
      price: text(ask),
      isLimit: true,
    });
    const activated = expectOk(await demo.stopOrder(stop.orderId)).order;
    expect(activated.status).toBe('Activated');
    const placed = expectOk(await demo.order(activated.activatedOrderId!)).order as OrderReply;
    expect(placed).toMatchObject({ source: '1', isLimit: false, type: 'buy' });
    expect(errorOf(await demo.deleteStopOrder(stop.orderId))).toEqual([400, 'stop_order_not_waiting']);
    expect(
      errorOf(
        await demo.createStopOrder({
          marketId: 'btc_usdt',
          orderType: 'market',
          side: 'buy',
          requestedPrice: '0',
          activationPrice: text(ask),
          requestedAmount: '0.01',
          timeInForce: 'gtc',
        }),
      ),
    ).toEqual([400, 'invalid_order']);
  });
});
