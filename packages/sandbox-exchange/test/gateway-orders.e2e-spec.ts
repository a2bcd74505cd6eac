import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Side } from '../src/engine/side';
import { formatUnits } from '../src/engine/units';
import { RunningSandbox } from '../src/start-sandbox';
import { ExactJson } from '../src/wire/exact-json';
import { GatewayTestClient, ReceivedFrame } from './support/gateway-test-client';
import { DEMO_PRIVATE_KEY, expectOk, PrivateRestClient } from '../src/trader/private-rest-client';
import { startTestSandbox } from './support/start-test-sandbox';

const TRADER_KEY = '00000000-0000-4000-8000-000000000002';
const TRADER_ACCOUNT = 20;
const OTHER_ACCOUNT = 30;

type Fields = Record<string, ExactJson>;

/** Payload numbers arrive as their exact text. */
function fields(frame: ReceivedFrame): Fields {
  return frame.payload as Fields;
}

describe('sandbox gateway: private trading calls', () => {
  let sandbox: RunningSandbox;
  let dir: string;
  let trader: GatewayTestClient;
  let other: GatewayTestClient;
  let traderRest: PrivateRestClient;
  const clients: GatewayTestClient[] = [];
  let btcUsdt: number;

  async function authenticated(email: string, password: string): Promise<GatewayTestClient> {
    const { client, token } = await GatewayTestClient.logIn(sandbox, email, password);
    clients.push(client);
    expect(fields(await client.call('WebAuthenticateUser', { SessionToken: token })).Authenticated).toBe(
      true,
    );
    return client;
  }

  function market(instrument = 'btc_usdt') {
    return sandbox.exchange.market(instrument)!;
  }

  /** Price text of btc_usdt `ticks` cents from its best bid (or ask). */
  function near(side: Side, ticks: bigint): string {
    return formatUnits(market().bestPrice(side)! + ticks, 2);
  }

  async function send(client: GatewayTestClient, order: Record<string, unknown>): Promise<Fields> {
    return fields(await client.call('SendOrder', { OMSId: 1, InstrumentId: btcUsdt, ...order }));
  }

  async function accepted(client: GatewayTestClient, order: Record<string, unknown>): Promise<number> {
    const reply = await send(client, order);
    expect(reply).toMatchObject({ status: 'Accepted', errormsg: '' });
    return Number(reply.OrderId);
  }

  async function status(
    client: GatewayTestClient,
    orderId: number,
    accountId = TRADER_ACCOUNT,
  ): Promise<Fields> {
    return fields(await client.call('GetOrderStatus', { OMSId: 1, AccountId: accountId, OrderId: orderId }));
  }

  async function openOrderIds(client: GatewayTestClient, accountId = TRADER_ACCOUNT): Promise<number[]> {
    const reply = await client.call('GetOpenOrders', { OMSId: 1, AccountId: accountId });
    return (reply.payload as Fields[]).map((order) => Number(order.OrderId));
  }

  const limitBuy = (price: string, quantity = '0.01', extra: Record<string, unknown> = {}) => ({
    AccountId: TRADER_ACCOUNT,
    Side: 0,
    OrderType: 2,
    Quantity: Number(quantity),
    LimitPrice: Number(price),
    TimeInForce: 1,
    ...extra,
  });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gateway-orders-'));
    const usersFile = join(dir, 'users.json');
    writeFileSync(
      usersFile,
      JSON.stringify([
        { userId: 1, email: 'demo@example.com', password: 'demo', accounts: [1], operator: true },
        { userId: 2, email: 'trader@example.com', password: 'trader', accounts: [TRADER_ACCOUNT, 21] },
        { userId: 3, email: 'other@example.com', password: 'other', accounts: [OTHER_ACCOUNT] },
      ]),
    );
    sandbox = await startTestSandbox({
      SANDBOX_FLOW_RATE: '0',
      SANDBOX_RATE_LIMITS: 'false',
      SANDBOX_USERS_FILE: usersFile,
    });
    btcUsdt = market().spec.instrumentId;
    traderRest = new PrivateRestClient(sandbox.baseUrl, TRADER_KEY, DEMO_PRIVATE_KEY);
    trader = await authenticated('trader@example.com', 'trader');
    other = await authenticated('other@example.com', 'other');
  });

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await sandbox?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses every private call before WebAuthenticateUser', async () => {
    const anonymous = await GatewayTestClient.connect(`${sandbox.wsUrl}/WSGateway/`);
    clients.push(anonymous);
    expect(
      fields(await anonymous.call('SendOrder', { OMSId: 1, InstrumentId: btcUsdt, ...limitBuy('1') })),
    ).toEqual({
      status: 'Rejected',
      errormsg: 'Not Authorized',
      errorcode: '20',
      detail: null,
      OrderId: '0',
    });
    for (const name of ['CancelOrder', 'GetOpenOrders', 'GetOrderStatus', 'SubscribeAccountEvents']) {
      const reply = await anonymous.call(name, { OMSId: 1, AccountId: TRADER_ACCOUNT, OrderId: 1 });
      expect([name, reply.m, fields(reply)]).toEqual([
        name,
        1,
        { result: false, errormsg: 'Not Authorized', errorcode: '20', detail: null },
      ]);
    }
  });

  it('places a limit order that GetOpenOrders, GetOrderStatus and the private REST all show, and cancels it', async () => {
    const price = near(Side.Buy, -500n);
    const orderId = await accepted(trader, limitBuy(price, '0.02', { ClientOrderId: 7001 }));
    const record = await status(trader, orderId);
    expect(record).toMatchObject({
      OMSId: '1',
      OrderId: String(orderId),
      Side: 'Buy',
      OrderType: 'Limit',
      OrderState: 'Working',
      Instrument: String(btcUsdt),
      Account: String(TRADER_ACCOUNT),
      ClientOrderId: '7001',
      Price: price,
      Quantity: '0.02',
      OrigQuantity: '0.02',
      QuantityExecuted: '0',
      TimeInForce: 'GTC',
      ChangeReason: 'NewInputAccepted',
    });
    expect(await openOrderIds(trader)).toContain(orderId);
    // The same order through the private REST (the trader's default account).
    expect(expectOk(await traderRest.order(String(orderId))).order).toMatchObject({
      status: 'Working',
      amount: '0.02',
    });

    // Cancelled by AccountId + ClientOrderId; the caller hears of it in an OrderStateEvent.
    const cancel = await trader.call('CancelOrder', {
      OMSId: 1,
      AccountId: TRADER_ACCOUNT,
      ClientOrderId: 7001,
    });
    expect(fields(cancel)).toEqual({ result: true, errormsg: null, errorcode: '0', detail: null });
    const event = await trader.waitFor(
      (frame) => frame.n === 'OrderStateEvent' && fields(frame).OrderId === String(orderId),
    );
    expect(event.m).toBe(3);
    expect(fields(event)).toMatchObject({ OrderState: 'Canceled', ChangeReason: 'UserModified' });
    expect((await status(trader, orderId)).OrderState).toBe('Canceled');
    expect(await openOrderIds(trader)).not.toContain(orderId);
    // Cancelling it again fails: it no longer works.
    expect(fields(await trader.call('CancelOrder', { OMSId: 1, OrderId: orderId }))).toMatchObject({
      result: false,
      errorcode: '101',
    });
  });

  it('lets a user cancel and read only their own orders', async () => {
    const orderId = await accepted(trader, limitBuy(near(Side.Buy, -400n)));
    expect(fields(await other.call('CancelOrder', { OMSId: 1, OrderId: orderId }))).toMatchObject({
      result: false,
      errorcode: '20',
    });
    expect(fields(await other.call('GetOrderStatus', { OMSId: 1, OrderId: orderId }))).toMatchObject({
      result: false,
      errorcode: '20',
    });
    expect(fields(await other.call('GetOpenOrders', { OMSId: 1, AccountId: TRADER_ACCOUNT }))).toMatchObject({
      errorcode: '20',
    });
    expect((await status(trader, orderId)).OrderState).toBe('Working');
    expect(fields(await trader.call('CancelOrder', { OMSId: 1, OrderId: 999_999_999 }))).toMatchObject({
      errorcode: '104',
    });
    // The wrong account with the right id is not that order.
    expect(
      fields(await trader.call('CancelOrder', { OMSId: 1, AccountId: 21, OrderId: orderId })),
    ).toMatchObject({
      errorcode: '104',
    });
    expect(fields(await trader.call('CancelOrder', { OMSId: 1, OrderId: orderId })).result).toBe(true);
  });

  it('fills market orders (IOC) and kills fill-or-kill limit orders that cannot fill in full', async () => {
    const ask = market().bestPrice(Side.Sell)!;
    const orderId = await accepted(trader, {
      AccountId: TRADER_ACCOUNT,
      Side: 0,
      OrderType: 1,
      Quantity: 0.001,
    });
    const filled = await status(trader, orderId);
    expect(filled).toMatchObject({
      OrderType: 'Market',
      OrderState: 'FullyExecuted',
      QuantityExecuted: '0.001',
      Quantity: '0',
      TimeInForce: 'IOC',
    });
    expect(BigInt(Math.round(Number(filled.AvgPrice) * 100))).toBeGreaterThanOrEqual(ask);

    // At the best ask a limit buy can fill that level only.
    const level = [...market().engine.levels(Side.Sell)][0];
    const fok = await accepted(
      trader,
      limitBuy(formatUnits(level.price, 2), formatUnits(level.amount + 1n, 8), { TimeInForce: 4 }),
    );
    expect(await status(trader, fok)).toMatchObject({
      OrderState: 'Canceled',
      QuantityExecuted: '0',
      TimeInForce: 'FOK',
    });
    expect([...market().engine.levels(Side.Sell)][0]).toEqual(level);

    const ioc = await accepted(
      trader,
      limitBuy(formatUnits(level.price, 2), formatUnits(level.amount * 2n, 8), { TimeInForce: 3 }),
    );
    expect(await status(trader, ioc)).toMatchObject({
      OrderState: 'Canceled',
      QuantityExecuted: formatUnits(level.amount, 8),
      TimeInForce: 'IOC',
    });
    expect(await openOrderIds(trader)).not.toContain(ioc);
  });

  it('rejects orders the market or the balance refuses, and malformed ones, with a code and the reason', async () => {
    const halted = market('ltc_btc').spec.instrumentId;
    const paused = market('xrp_usdt').spec.instrumentId;
    const price = near(Side.Buy, -100n);
    const cases: [Record<string, unknown>, string, unknown][] = [
      [{ ...limitBuy(price), InstrumentId: 9999 }, '104', 'no instrument 9999'],
      [limitBuy(price, '0.00001'), '101', 'amount_below_minimum'],
      [limitBuy(price, '100000'), '101', 'insufficient_balance'],
      [{ ...limitBuy('0.003', '1'), InstrumentId: halted }, '101', 'market_halted'],
      [{ ...limitBuy('0.5', '10'), InstrumentId: paused }, '101', 'market_paused'],
      [limitBuy(formatUnits(market().bestPrice(Side.Sell)! * 2n, 2)), '101', 'price_deviation'],
      [{ ...limitBuy(price), Side: 2 }, '100', expect.any(String)],
      [{ ...limitBuy(price), OrderType: 7 }, '100', expect.any(String)],
      [{ ...limitBuy(price), LimitPrice: undefined }, '100', expect.any(String)],
      [{ ...limitBuy(price), Quantity: 0 }, '100', expect.any(String)],
      [{ ...limitBuy(price), Quantity: 0.123456789 }, '100', 'invalid_order'],
      [{ ...limitBuy(price), TimeInForce: 2 }, '100', expect.any(String)],
      [
        { ...limitBuy(price), AccountId: OTHER_ACCOUNT },
        '20',
        `account ${OTHER_ACCOUNT} is not the caller's`,
      ],
      [{ ...limitBuy(price), OrderType: 3, StopPrice: 1, PegPriceType: 2 }, '100', expect.any(String)],
      [{ ...limitBuy(price), OrderIdOCO: 123_456_789 }, '100', 'invalid_order'],
    ];
    for (const [order, errorcode, detail] of cases) {
      const reply = await send(trader, order);
      expect([order, reply.status, reply.errorcode, reply.detail]).toEqual([
        order,
        'Rejected',
        errorcode,
        detail,
      ]);
      expect(typeof reply.errormsg === 'string' && reply.errormsg !== '').toBe(true);
    }
    // A ClientOrderId is unique among the account's open orders.
    const first = await accepted(trader, limitBuy(near(Side.Buy, -800n), '0.001', { ClientOrderId: 9001 }));
    expect(
      await send(trader, limitBuy(near(Side.Buy, -800n), '0.001', { ClientOrderId: 9001 })),
    ).toMatchObject({
      status: 'Rejected',
      errorcode: '101',
      detail: 'duplicate_client_order_id',
    });
    expect(fields(await trader.call('CancelOrder', { OMSId: 1, OrderId: first })).result).toBe(true);
    // Refusals by the market rules and the balance are recorded as Rejected orders.
    const reply = await send(trader, limitBuy(price, '100000'));
    expect(Number(reply.OrderId)).toBeGreaterThan(0);
    expect(await status(trader, Number(reply.OrderId))).toMatchObject({
      OrderState: 'Rejected',
      ChangeReason: 'NewInputRejected',
    });
  });

  it('shows only the display quantity of a reserve order in the public book', async () => {
    const price = near(Side.Buy, -700n);
    const levelAt = () =>
      [...market().engine.levels(Side.Buy)].find((level) => formatUnits(level.price, 2) === price)?.amount ??
      0n;
    const before = levelAt();
    const orderId = await accepted(
      trader,
      limitBuy(price, '0.05', { UseDisplayQuantity: true, DisplayQuantity: 0.01 }),
    );
    expect(levelAt() - before).toBe(1_000_000n);
    expect(await status(trader, orderId)).toMatchObject({ Quantity: '0.05', DisplayQuantity: '0.01' });
    // A display quantity is for limit orders only.
    expect(
      await send(trader, {
        ...limitBuy(price, '0.01'),
        OrderType: 1,
        UseDisplayQuantity: true,
        DisplayQuantity: 0.01,
      }),
    ).toMatchObject({ status: 'Rejected', errorcode: '100' });
    expect(fields(await trader.call('CancelOrder', { OMSId: 1, OrderId: orderId })).result).toBe(true);
    expect(levelAt()).toBe(before);
  });

  it('cancels an order linked one-cancels-other when the other order executes', async () => {
    const bid = market().bestPrice(Side.Buy)!;
    const takeProfit = await accepted(trader, limitBuy(formatUnits(bid + 1n, 2), '0.01'));
    const linked = await accepted(
      trader,
      limitBuy(formatUnits(bid - 600n, 2), '0.01', { OrderIdOCO: takeProfit }),
    );
    expect((await status(trader, linked)).OrderIdOCO).toBe(String(takeProfit));
    // The other user sells into the best bid, which is the take-profit order.
    await accepted(other, { AccountId: OTHER_ACCOUNT, Side: 1, OrderType: 1, Quantity: 0.005 });
    expect((await status(trader, takeProfit)).QuantityExecuted).toBe('0.005');
    expect(await status(trader, linked)).toMatchObject({ OrderState: 'Canceled', QuantityExecuted: '0' });
    expect(fields(await trader.call('CancelOrder', { OMSId: 1, OrderId: takeProfit })).result).toBe(true);
  });

  it('waits with stop orders until the last price reaches them, then places them', async () => {
    const ask = market().bestPrice(Side.Sell)!;
    // A stop market sell above the last price waits for a rise to the best ask.
    const stopMarket = await accepted(trader, {
      AccountId: TRADER_ACCOUNT,
      Side: 1,
      OrderType: 3,
      Quantity: 0.001,
      StopPrice: Number(formatUnits(ask, 2)),
      PegPriceType: 1,
    });
    const stopLimit = await accepted(trader, {
      AccountId: TRADER_ACCOUNT,
      Side: 0,
      OrderType: 4,
      Quantity: 0.001,
      StopPrice: Number(formatUnits(ask + 100_000n, 2)),
      LimitPrice: Number(formatUnits(ask + 100_100n, 2)),
      ClientOrderId: 8001,
    });
    expect(await status(trader, stopMarket)).toMatchObject({
      OrderType: 'StopMarket',
      OrderState: 'Working',
      StopPrice: formatUnits(ask, 2),
      PegPriceType: 'Last',
    });
    expect(await openOrderIds(trader)).toEqual(expect.arrayContaining([stopMarket, stopLimit]));
    // The other user buys at the best ask: the last price reaches the stop.
    await accepted(other, { AccountId: OTHER_ACCOUNT, Side: 0, OrderType: 1, Quantity: 0.001 });
    const activated = await status(trader, stopMarket);
    expect(activated).toMatchObject({
      OrderId: String(stopMarket),
      OrderType: 'StopMarket',
      OrderState: 'FullyExecuted',
    });
    expect(activated.QuantityExecuted).toBe('0.001');
    // The far stop limit still waits; it is cancelled by its ClientOrderId.
    expect((await status(trader, stopLimit)).OrderState).toBe('Working');
    expect(
      fields(await trader.call('CancelOrder', { OMSId: 1, AccountId: TRADER_ACCOUNT, ClientOrderId: 8001 }))
        .result,
    ).toBe(true);
    expect(await status(trader, stopLimit)).toMatchObject({ OrderState: 'Canceled', OrderType: 'StopLimit' });
    expect(await openOrderIds(trader)).not.toContain(stopLimit);
    // A stop limit is GTC.
    expect(
      await send(trader, {
        AccountId: TRADER_ACCOUNT,
        Side: 0,
        OrderType: 4,
        Quantity: 0.001,
        StopPrice: 1,
        LimitPrice: 1,
        TimeInForce: 3,
      }),
    ).toMatchObject({ status: 'Rejected', errorcode: '100' });
  });

  it('trails the last price with trailing stop orders', async () => {
    const last = market().tradeLog.last()!.price;
    const trailing = await accepted(trader, {
      AccountId: TRADER_ACCOUNT,
      Side: 1,
      OrderType: 6,
      Quantity: 0.001,
      TrailingAmount: 500,
      LimitOffset: 10,
      PegPriceType: 1,
    });
    expect(await status(trader, trailing)).toMatchObject({
      OrderType: 'TrailingStopLimit',
      OrderState: 'Working',
      StopPrice: formatUnits(last - 50_000n, 2),
      PegOffset: '500',
      PegLimitOffset: '10',
    });
    const market5 = await send(trader, { AccountId: TRADER_ACCOUNT, Side: 0, OrderType: 5, Quantity: 0.001 });
    expect(market5).toMatchObject({ status: 'Rejected', errorcode: '100' });
    expect(fields(await trader.call('CancelOrder', { OMSId: 1, OrderId: trailing })).result).toBe(true);
  });

  it('sends order, trade and position events to sockets subscribed to the account', async () => {
    const watcher = await authenticated('trader@example.com', 'trader');
    expect(
      fields(await watcher.call('SubscribeAccountEvents', { OMSId: 1, AccountId: TRADER_ACCOUNT })),
    ).toEqual({
      Subscribed: true,
    });
    const bid = market().bestPrice(Side.Buy)!;
    const orderId = await accepted(trader, limitBuy(formatUnits(bid + 1n, 2), '0.002'));
    await watcher.waitFor(
      (frame) => frame.n === 'OrderStateEvent' && fields(frame).OrderId === String(orderId),
    );
    await accepted(other, { AccountId: OTHER_ACCOUNT, Side: 1, OrderType: 1, Quantity: 0.002 });
    const trade = await watcher.waitFor(
      (frame) => frame.n === 'OrderTradeEvent' && fields(frame).OrderId === String(orderId),
    );
    expect(fields(trade)).toMatchObject({
      AccountId: String(TRADER_ACCOUNT),
      Side: 'Buy',
      Quantity: '0.002',
      Price: formatUnits(bid + 1n, 2),
      MakerTaker: 'Maker',
    });
    await watcher.waitFor(
      (frame) =>
        frame.n === 'OrderStateEvent' &&
        fields(frame).OrderId === String(orderId) &&
        fields(frame).OrderState === 'FullyExecuted',
    );
    const position = await watcher.waitFor(
      (frame) => frame.n === 'AccountPositionEvent' && fields(frame).ProductSymbol === 'BTC',
    );
    const rest = expectOk(await traderRest.balances()).find((balance) => balance.asset === 'btc')!;
    expect(fields(position)).toMatchObject({ AccountId: String(TRADER_ACCOUNT), Hold: rest.locked });
    expect(fields(position).Amount).toBe(rest.balance);
    // The other user's socket, not subscribed, saw none of it.
    expect(other.events('OrderTradeEvent')).toEqual([]);
    // GetTradesHistory finds the execution by its order, and by default on the default account.
    const byOrder = await trader.call('GetTradesHistory', { OMSId: 1, OrderId: orderId });
    expect((byOrder.payload as Fields[]).map((row) => [row.OrderId, row.Quantity, row.MakerTaker])).toEqual([
      [String(orderId), '0.002', 'Maker'],
    ]);
    const recent = await trader.call('GetTradesHistory', { OMSId: 1, Depth: 1 });
    expect((recent.payload as Fields[])[0].TradeId).toBe(fields(trade).TradeId);
    expect(
      fields(await watcher.call('UnsubscribeAccountEvents', { OMSId: 1, AccountId: TRADER_ACCOUNT })).result,
    ).toBe(true);
    const count = watcher.frames.length;
    await accepted(trader, limitBuy(near(Side.Buy, -900n), '0.001'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(watcher.frames.length).toBe(count);
  });
  it('finds the executions of gateway orders with every GetTradesHistory filter and its defaults', async () => {
    const history = async (payload: Record<string, unknown>) =>
      (await trader.call('GetTradesHistory', { OMSId: 1, ...payload })).payload as Fields[];
    // One execution on the default account, one on the second account, one on another market.
    const bid = market().bestPrice(Side.Buy)!;
    const first = await accepted(trader, {
      AccountId: TRADER_ACCOUNT,
      Side: 1,
      OrderType: 1,
      Quantity: 0.001,
    });
    const onSecond = await accepted(trader, { AccountId: 21, Side: 1, OrderType: 1, Quantity: 0.002 });
    const eth = market('eth_usdt');
    const onEth = await send(trader, {
      AccountId: TRADER_ACCOUNT,
      InstrumentId: eth.spec.instrumentId,
      Side: 1,
      OrderType: 1,
      Quantity: 0.01,
    });
    expect(onEth.status).toBe('Accepted');

    const all = await history({});
    const ids = (rows: Fields[]) => rows.map((row) => Number(row.OrderId));
    // Only OMSId: the default account's executions of every instrument, newest first.
    expect(ids(all)).toContain(first);
    expect(ids(all)).toContain(Number(onEth.OrderId));
    expect(ids(all)).not.toContain(onSecond);
    expect(all.every((row) => row.AccountId === String(TRADER_ACCOUNT))).toBe(true);
    const times = all.map((row) => Number(row.TradeTimeMS));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(ids(await history({ AccountId: 21 }))).toEqual([onSecond]);
    expect(ids(await history({ UserId: 2 }))).toEqual(expect.arrayContaining([first, onSecond]));
    expect(await history({ UserId: 3 })).toMatchObject({ errorcode: '20' });
    expect(await history({ AccountId: OTHER_ACCOUNT })).toMatchObject({ errorcode: '20' });

    const btcRows = await history({ InstrumentId: btcUsdt });
    expect(btcRows.every((row) => row.InstrumentId === String(btcUsdt))).toBe(true);
    expect(ids(btcRows)).not.toContain(Number(onEth.OrderId));
    const byOrder = await history({ OrderId: first });
    expect(byOrder.map((row) => [row.Side, row.Quantity, row.MakerTaker, row.Price])).toEqual([
      ['Sell', '0.001', 'Taker', formatUnits(bid, 2)],
    ]);
    const [execution] = byOrder;
    expect(ids(await history({ TradeId: Number(execution.TradeId) }))).toEqual([first]);
    expect(ids(await history({ ExecutionId: Number(execution.ExecutionId) }))).toEqual([first]);
    // StartIndex 0 is the newest; Depth counts from it.
    expect(await history({ StartIndex: 1, Depth: 2 })).toEqual(all.slice(1, 3));
    // Time bounds in milliseconds or seconds, both inclusive.
    const at = Number(execution.TradeTimeMS);
    expect(ids(await history({ StartTimeStamp: at, EndTimeStamp: at }))).toContain(first);
    expect(
      ids(await history({ StartTimeStamp: Math.floor(at / 1000), EndTimeStamp: Math.floor(at / 1000) })),
    ).toContain(first);
    expect(await history({ StartTimeStamp: at + 1000 })).toEqual([]);
    expect(ids(await history({ EndTimeStamp: at - 1000 }))).not.toContain(first);
  });
});
