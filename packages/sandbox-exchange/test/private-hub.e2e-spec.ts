import {
  HttpTransportType,
  HubConnection,
  HubConnectionBuilder,
  ISubscription,
  LogLevel,
} from '@microsoft/signalr';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { Side } from '../src/engine/side';
import { formatUnits } from '../src/engine/units';
import { RunningSandbox } from '../src/start-sandbox';
import { eventually, GatewayTestClient } from './support/gateway-test-client';
import {
  DEMO_PRIVATE_KEY,
  DEMO_PUBLIC_KEY,
  expectOk,
  OrderReply,
  PrivateRestClient,
  sign,
} from '../src/trader/private-rest-client';
import { startTestSandbox } from './support/start-test-sandbox';

const OTHER_KEY = '00000000-0000-4000-8000-000000000002';

interface HubOrder {
  orderId: string;
  status: string;
  unitsFilled: number;
  amount: number;
  price: number;
  instrument: string;
}

interface BalanceUpdate {
  assetId: string;
  available: number;
  orderLocked: number;
  transferLocked: number;
}

/** The private hub's connection headers: Payload a timestamp, Sign its HMAC-SHA512 in upper-case hex. */
function accountHeaders(
  publicKey = DEMO_PUBLIC_KEY,
  privateKey = DEMO_PRIVATE_KEY,
  payload = new Date().toISOString(),
): Record<string, string> {
  return { Key: publicKey, Sign: sign(privateKey, payload), Payload: payload };
}

function accountHub(baseUrl: string, headers: Record<string, string>, negotiate = false): HubConnection {
  return new HubConnectionBuilder()
    .withUrl(
      `${baseUrl}/ws/account`,
      negotiate
        ? { transport: HttpTransportType.WebSockets, headers }
        : { skipNegotiation: true, transport: HttpTransportType.WebSockets, headers },
    )
    .configureLogging(LogLevel.None)
    .build();
}

/** Every item of one stream, in arrival order. */
class Follower<T> {
  readonly items: T[] = [];
  error?: Error;
  private readonly subscription: ISubscription<T>;

  constructor(connection: HubConnection, method: string) {
    this.subscription = connection.stream<T>(method).subscribe({
      next: (item) => this.items.push(item),
      error: (error: unknown) => {
        this.error = error as Error;
      },
      complete: () => undefined,
    });
  }

  get last(): T | undefined {
    return this.items[this.items.length - 1];
  }

  dispose(): void {
    this.subscription.dispose();
  }
}

/** Status of a raw websocket upgrade to the hub with these headers (101 when accepted). */
function upgradeStatus(url: string, headers: Record<string, string>): Promise<number> {
  const socket = new WebSocket(url, { headers });
  return new Promise((resolve, reject) => {
    socket.once('open', () => {
      socket.close();
      resolve(101);
    });
    socket.once('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0);
      socket.terminate();
    });
    socket.once('error', reject);
  });
}

describe('sandbox private hub /ws/account', () => {
  let sandbox: RunningSandbox;
  let dir: string;
  let demo: PrivateRestClient;
  let other: PrivateRestClient;
  const connections: HubConnection[] = [];

  async function connected(headers = accountHeaders(), negotiate = false): Promise<HubConnection> {
    const connection = accountHub(sandbox.baseUrl, headers, negotiate);
    connections.push(connection);
    await connection.start();
    return connection;
  }

  function bestBid(): bigint {
    return sandbox.exchange.market('btc_usdt')!.bestPrice(Side.Buy)!;
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'private-hub-'));
    const usersFile = join(dir, 'users.json');
    writeFileSync(
      usersFile,
      JSON.stringify([
        { userId: 1, email: 'demo@example.com', password: 'demo', operator: true },
        { userId: 2, email: 'other@example.com', password: 'other' },
      ]),
    );
    sandbox = await startTestSandbox({
      SANDBOX_FLOW_RATE: '0',
      SANDBOX_RATE_LIMITS: 'false',
      SANDBOX_USERS_FILE: usersFile,
    });
    demo = new PrivateRestClient(sandbox.baseUrl);
    other = new PrivateRestClient(sandbox.baseUrl, OTHER_KEY, DEMO_PRIVATE_KEY);
  });

  afterEach(async () => {
    sandbox.exchange.setFlowRate(0);
    await Promise.all(connections.splice(0).map((connection) => connection.stop()));
    for (const order of expectOk(await demo.myOrders())) await demo.cancelOrder(order.orderId);
  });

  afterAll(async () => {
    await sandbox?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses connections without valid Key, Sign and Payload with 401 and the code of the case', async () => {
    const url = `${sandbox.wsUrl}/ws/account`;
    const old = new Date(Date.now() - 10_000).toISOString();
    const cases: [Record<string, string>, string][] = [
      [{}, 'unauthorized'],
      [{ Key: DEMO_PUBLIC_KEY, Payload: new Date().toISOString() }, 'unauthorized'],
      [accountHeaders('00000000-0000-4000-8000-000000000099'), 'invalid_key'],
      [accountHeaders(DEMO_PUBLIC_KEY, 'wrong-secret'), 'invalid_signature'],
      [accountHeaders(DEMO_PUBLIC_KEY, DEMO_PRIVATE_KEY, old), 'invalid_ts'],
      [accountHeaders(DEMO_PUBLIC_KEY, DEMO_PRIVATE_KEY, 'yesterday'), 'invalid_payload'],
    ];
    for (const [headers, code] of cases) {
      expect(await upgradeStatus(url, headers)).toBe(401);
      const negotiate = await fetch(`${sandbox.baseUrl}/ws/account/negotiate?negotiateVersion=1`, {
        method: 'POST',
        headers,
      });
      expect(negotiate.status).toBe(401);
      expect(((await negotiate.json()) as { errors: { code: string }[] }).errors[0].code).toBe(code);
    }
    // A signature of another payload than the one sent is refused too.
    const payload = new Date().toISOString();
    expect(
      await upgradeStatus(url, {
        Key: DEMO_PUBLIC_KEY,
        Sign: sign(DEMO_PRIVATE_KEY, `${payload}0`),
        Payload: payload,
      }),
    ).toBe(401);
    await expect(connected({})).rejects.toThrow();
    // The right headers open it, on both paths, with a Unix-milliseconds Payload too.
    expect(await upgradeStatus(url, accountHeaders())).toBe(101);
    expect(await upgradeStatus(`${sandbox.wsUrl}/frontoffice/ws/account`, accountHeaders())).toBe(101);
    expect(
      await upgradeStatus(url, accountHeaders(DEMO_PUBLIC_KEY, DEMO_PRIVATE_KEY, String(Date.now()))),
    ).toBe(101);
  });

  it('streams the open orders placed and cancelled through the private REST, and only the caller’s', async () => {
    const connection = await connected(accountHeaders(), true);
    const orders = new Follower<HubOrder[]>(connection, 'OpenOrders');
    await eventually(() => orders.items.length === 1);
    expect(orders.items[0]).toEqual([]);

    const price = formatUnits(bestBid() - 300n, 2);
    const placed = await demo.placed({
      instrument: 'btc_usdt',
      type: 'buy',
      amount: '0.5',
      price,
      isLimit: true,
    });
    await eventually(() => (orders.last ?? []).some((order) => order.orderId === placed.orderId));
    expect(orders.last).toEqual([
      expect.objectContaining({
        orderId: placed.orderId,
        status: 'Working',
        amount: 0.5,
        price: Number(price),
        instrument: 'btc_usdt',
      }),
    ]);

    // Another user's orders never show.
    const count = orders.items.length;
    const foreign = await other.placed({
      instrument: 'btc_usdt',
      type: 'buy',
      amount: '0.5',
      price,
      isLimit: true,
    });
    const second = await demo.placed({
      instrument: 'btc_usdt',
      type: 'buy',
      amount: '0.25',
      price,
      isLimit: true,
    });
    await eventually(() => (orders.last ?? []).length === 2);
    expect(
      orders.items
        .slice(count)
        .flat()
        .map((order) => order.orderId),
    ).not.toContain(foreign.orderId);
    expect(new Set(orders.last!.map((order) => order.orderId))).toEqual(
      new Set([placed.orderId, second.orderId]),
    );

    expectOk(await demo.cancelOrder(placed.orderId));
    await eventually(() => orders.last?.length === 1);
    expect(orders.last![0].orderId).toBe(second.orderId);

    // A new stream starts from the current list.
    const again = new Follower<HubOrder[]>(connection, 'OpenOrders');
    await eventually(() => again.items.length === 1);
    expect(again.items[0].map((order) => order.orderId)).toEqual([second.orderId]);
  });

  it('streams the orders placed and cancelled through the gateway, and the balances they lock', async () => {
    const { client: gateway, token } = await GatewayTestClient.logIn(sandbox, 'demo@example.com', 'demo');
    try {
      await gateway.call('WebAuthenticateUser', { SessionToken: token });
      const connection = await connected();
      const orders = new Follower<HubOrder[]>(connection, 'OpenOrders');
      const updates = new Follower<BalanceUpdate>(connection, 'BalanceUpdates');
      await eventually(() => orders.items.length === 1 && updates.items.length > 0);
      const sent = await gateway.call('SendOrder', {
        OMSId: 1,
        InstrumentId: sandbox.exchange.market('btc_usdt')!.spec.instrumentId,
        Side: 1,
        OrderType: 2,
        Quantity: 0.3,
        LimitPrice: Number(formatUnits(sandbox.exchange.market('btc_usdt')!.bestPrice(Side.Sell)! + 500n, 2)),
      });
      const orderId = String((sent.payload as { OrderId: string }).OrderId);
      await eventually(() => orders.last?.some((order) => order.orderId === orderId) === true);
      expect(orders.last!.find((order) => order.orderId === orderId)).toMatchObject({
        status: 'Working',
        amount: 0.3,
      });
      // A sell locks its amount of the base asset.
      await eventually(() =>
        updates.items.some((item) => item.assetId === 'btc' && item.orderLocked === 0.3),
      );

      await gateway.call('CancelOrder', { OMSId: 1, OrderId: Number(orderId) });
      await eventually(() => orders.last?.every((order) => order.orderId !== orderId) === true);
      await eventually(() => updates.last?.assetId === 'btc' && updates.last.orderLocked === 0);
    } finally {
      await gateway.close();
    }
  });

  it('streams balances whose locked amounts follow the orders, as the private REST reports them', async () => {
    const connection = await connected();
    const balance = new Follower<Record<string, number>>(connection, 'Balance');
    const updates = new Follower<BalanceUpdate>(connection, 'BalanceUpdates');
    await eventually(() => balance.items.length === 1 && updates.items.length > 0);
    const before = balance.items[0].usdt;
    expect(before).toBeGreaterThan(0);
    expect(updates.items.map((item) => item.assetId)).toEqual(expect.arrayContaining(['usdt', 'btc']));

    const price = formatUnits(bestBid() - 300n, 2);
    await demo.placed({ instrument: 'btc_usdt', type: 'buy', amount: '1', price, isLimit: true });
    await eventually(() => balance.last!.usdt < before);
    const rest = expectOk(await demo.balances());
    const usdt = rest.find((entry) => entry.asset === 'usdt')!;
    await eventually(() => updates.last?.assetId === 'usdt');
    expect(updates.last!.orderLocked).toBeCloseTo(Number(usdt.locked), 6);
    expect(updates.last!.available).toBeCloseTo(Number(usdt.balance) - Number(usdt.locked), 6);
    expect(balance.last!.usdt).toBeCloseTo(updates.last!.available, 6);
    // A limit buy locks price x amount x (1 + the larger fee), and the total does not move.
    expect(before - balance.last!.usdt).toBeGreaterThanOrEqual(Number(price));
    expect(balance.last!.usdt + updates.last!.orderLocked).toBeCloseTo(before, 6);
  });

  it('shows fills from the synthetic flow: the order fills, leaves the open orders, and the balances move', async () => {
    const connection = await connected();
    const orders = new Follower<HubOrder[]>(connection, 'OpenOrders');
    const balance = new Follower<Record<string, number>>(connection, 'Balance');
    await eventually(() => orders.items.length === 1 && balance.items.length === 1);
    const btcBefore = balance.items[0].btc;
    // The best bid, a tick above: synthetic sellers hit it first.
    const placed: OrderReply = await demo.placed({
      instrument: 'btc_usdt',
      type: 'buy',
      amount: '0.01',
      price: formatUnits(bestBid() + 1n, 2),
      isLimit: true,
    });
    await eventually(() => orders.last?.some((order) => order.orderId === placed.orderId) === true);
    sandbox.exchange.setFlowRate(200);
    await eventually(() => orders.last?.every((order) => order.orderId !== placed.orderId) === true, 20_000);
    sandbox.exchange.setFlowRate(0);
    const final = expectOk(await demo.order(placed.orderId)).order;
    expect(final.status).toBe('Completed');
    await eventually(() => Math.abs(balance.last!.btc - (btcBefore + 0.01)) < 1e-9);
  }, 30_000);
  it('cuts its connections and refuses new ones while the drop-connections fault is on', async () => {
    const connection = await connected();
    const closed = new Promise<void>((resolve) => connection.onclose(() => resolve()));
    const setFault = (enabled: boolean) =>
      fetch(`${sandbox.baseUrl}/sandbox/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'drop-connections', enabled }),
      });
    expect((await setFault(true)).status).toBeLessThan(300);
    try {
      await closed;
      expect(await upgradeStatus(`${sandbox.wsUrl}/ws/account`, accountHeaders())).toBe(503);
    } finally {
      await setFault(false);
    }
    expect(await upgradeStatus(`${sandbox.wsUrl}/ws/account`, accountHeaders())).toBe(101);
  });
});
