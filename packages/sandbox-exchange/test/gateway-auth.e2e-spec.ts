import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatUnits } from '../src/engine/units';
import { GatewayTestClient } from './support/gateway-test-client';
import { RunningSandbox } from '../src/start-sandbox';
import { startTestSandbox } from './support/start-test-sandbox';

interface Login {
  readonly token: string;
  readonly session_token: string;
  readonly user_id: number;
}

async function login(sandbox: RunningSandbox, email: string, password: string): Promise<Login> {
  const response = await fetch(`${sandbox.authUrl}/api/v1/trade/auth`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email, password }).toString(),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: Login }).data;
}

/** Logs in, connects with the session_token and authenticates with the token. */
async function authenticatedClient(sandbox: RunningSandbox, email = 'demo@example.com', password = 'demo') {
  const session = await login(sandbox, email, password);
  const client = await GatewayTestClient.connect(
    `${sandbox.wsUrl}/WSGateway/?session_token=${encodeURIComponent(session.session_token)}`,
  );
  const reply = await client.call('WebAuthenticateUser', { SessionToken: session.token });
  expect(reply.payload).toMatchObject({ Authenticated: true });
  return { client, session };
}

describe('sandbox gateway: login and authenticated calls', () => {
  let sandbox: RunningSandbox;
  let usersDir: string;
  const clients: GatewayTestClient[] = [];

  beforeAll(async () => {
    usersDir = mkdtempSync(join(tmpdir(), 'gateway-users-'));
    const usersFile = join(usersDir, 'users.json');
    writeFileSync(
      usersFile,
      JSON.stringify([
        { userId: 1, email: 'demo@example.com', password: 'demo', accounts: [1], operator: true },
        { userId: 2, email: 'trader@example.com', password: 'trader', accounts: [20, 21] },
      ]),
    );
    sandbox = await startTestSandbox({ SANDBOX_FLOW_RATE: '0', SANDBOX_USERS_FILE: usersFile });
  });

  afterEach(async () => {
    sandbox.exchange.setFlowRate(0);
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });

  afterAll(async () => {
    await sandbox?.close();
    rmSync(usersDir, { recursive: true, force: true });
  });

  async function connect(session?: Login): Promise<GatewayTestClient> {
    const query = session ? `?session_token=${encodeURIComponent(session.session_token)}` : '';
    const client = await GatewayTestClient.connect(`${sandbox.wsUrl}/WSGateway/${query}`);
    clients.push(client);
    return client;
  }

  it('authenticates with the login token over a socket opened with the session token', async () => {
    const session = await login(sandbox, 'trader@example.com', 'trader');
    const client = await connect(session);
    const reply = await client.call('WebAuthenticateUser', { SessionToken: session.token });
    expect(reply).toMatchObject({ m: 1, n: 'WebAuthenticateUser' });
    expect(reply.payload).toEqual({
      Authenticated: true,
      SessionToken: session.token,
      UserId: '2',
      User: {
        UserId: '2',
        UserName: 'trader@example.com',
        Email: 'trader@example.com',
        EmailVerified: true,
        AccountId: '20',
        OMSId: '1',
        Use2FA: false,
      },
      Locked: false,
      Requires2FA: false,
      EnforceEnable2FA: false,
      TwoFAType: null,
      TwoFAToken: null,
      errormsg: null,
    });
    expect((await client.call('GetUserAccounts', { OMSId: 1, UserId: 2 })).payload).toEqual(['20', '21']);
    expect((await client.call('GetUserAccounts', { OMSId: 1, UserId: 1 })).payload).toMatchObject({
      errorcode: '20',
    });
  });

  it('refuses a wrong token, and the token of another login on a socket of one login', async () => {
    const first = await login(sandbox, 'trader@example.com', 'trader');
    const second = await login(sandbox, 'trader@example.com', 'trader');
    const client = await connect(first);
    for (const payload of [
      { SessionToken: 'forged' },
      { SessionToken: first.session_token },
      {},
      { SessionToken: second.token },
    ]) {
      expect((await client.call('WebAuthenticateUser', payload)).payload).toEqual({ Authenticated: false });
    }
    expect((await client.call('GetUserAccounts', { OMSId: 1 })).payload).toMatchObject({ errorcode: '20' });
    const open = await connect();
    expect((await open.call('WebAuthenticateUser', { SessionToken: second.token })).payload).toMatchObject({
      Authenticated: true,
      UserId: '2',
    });
    expect((await open.call('GetUserAccounts', { OMSId: 1 })).payload).toEqual(['20', '21']);
  });

  it("lets the operator list another user's accounts", async () => {
    const { client } = await authenticatedClient(sandbox);
    clients.push(client);
    expect((await client.call('GetUserAccounts', { OMSId: 1 })).payload).toEqual(['1']);
    expect((await client.call('GetUserAccounts', { OMSId: 1, UserId: 2 })).payload).toEqual(['20', '21']);
    expect((await client.call('GetUserAccounts', { OMSId: 1, UserId: 9 })).payload).toMatchObject({
      errorcode: '104',
    });
  });

  it('sends the last trades oldest first, then OrderTradeEvents by default', async () => {
    const { client } = await authenticatedClient(sandbox);
    clients.push(client);
    const btc = sandbox.exchange.market('btc_usdt')!;
    const reply = await client.call('SubscribeTrades', { OMSId: 1, InstrumentId: 1, IncludeLastCount: 5 });
    const expected = btc.tradeLog
      .newest(5)
      .reverse()
      .map((trade) => [
        String(trade.id),
        '1',
        formatUnits(trade.amount, 8),
        formatUnits(trade.price, 2),
        String(trade.takerSide === 0 ? trade.takerOrderId : trade.makerOrderId),
        String(trade.takerSide === 0 ? trade.makerOrderId : trade.takerOrderId),
        String(trade.time),
        String(trade.direction),
        String(trade.takerSide),
        false,
        '0',
      ]);
    expect(expected).toHaveLength(5);
    expect(reply.payload).toEqual(expected);
    expect((await client.call('SubscribeTrades', { OMSId: 1, InstrumentId: 1 })).payload).toMatchObject({
      errorcode: '909',
    });
    const defaultCount = await client.call('SubscribeTrades', { OMSId: 1, InstrumentId: 3 });
    expect(defaultCount.payload).toHaveLength(
      Math.min(100, sandbox.exchange.market('eth_usdt')!.tradeLog.size),
    );

    sandbox.exchange.setFlowRate(300);
    await client.until(() => client.events('OrderTradeEvent').length >= 3, 10_000);
    sandbox.exchange.setFlowRate(0);
    expect(client.events('TradeDataUpdateEvent')).toEqual([]);
    const streamed = client
      .events('OrderTradeEvent')
      .flatMap((event) => event.payload as string[][])
      .filter((row) => row[1] === '1');
    const tape = new Map(btc.tradeLog.newest(btc.tradeLog.size).map((trade) => [String(trade.id), trade]));
    for (const row of streamed) {
      const trade = tape.get(row[0])!;
      expect(row).toEqual([
        row[0],
        '1',
        formatUnits(trade.amount, 8),
        formatUnits(trade.price, 2),
        expect.any(String),
        expect.any(String),
        String(trade.time),
        String(trade.direction),
        String(trade.takerSide),
        false,
        '0',
      ]);
    }
    const ids = streamed.map((row) => Number(row[0]));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(ids[0]).toBeGreaterThan(Number((reply.payload as string[][])[4][0]));

    expect((await client.call('UnsubscribeTrades', { OMSId: 1, InstrumentId: 1 })).payload).toMatchObject({
      result: true,
    });
  });

  it("pages the operator through a market's whole tape with GetTradesHistory", async () => {
    const { client } = await authenticatedClient(sandbox);
    clients.push(client);
    const btc = sandbox.exchange.market('btc_usdt')!;
    const newest = btc.tradeLog.newest(3);
    const page = async (payload: object) =>
      (await client.call('GetTradesHistory', { OMSId: 1, InstrumentId: 1, ...payload })).payload as Record<
        string,
        string
      >[];
    const first = await page({ Depth: 6 });
    expect(first.map((record) => record.TradeId)).toEqual(
      newest.flatMap((trade) => [String(trade.id), String(trade.id)]),
    );
    expect(first.map((record) => record.MakerTaker)).toEqual([
      'Taker',
      'Maker',
      'Taker',
      'Maker',
      'Taker',
      'Maker',
    ]);
    expect(first[0]).toMatchObject({
      OMSId: '1',
      InstrumentId: '1',
      AccountId: '1000',
      Price: formatUnits(newest[0].price, 2),
      Quantity: formatUnits(newest[0].amount, 8),
      TradeTimeMS: String(newest[0].time),
      OrderOriginator: '0',
    });
    const second = await page({ Depth: 6, StartIndex: 6 });
    expect(second[0].TradeId).toBe(String(btc.tradeLog.newest(4)[3].id));

    const all = await page({});
    expect(all).toHaveLength(btc.tradeLog.size * 2);
    const from = btc.tradeLog.newest(10)[9].time;
    const window = await page({ StartTimeStamp: from, EndTimeStamp: newest[0].time });
    expect(window.every((record) => Number(record.TradeTimeMS) >= from)).toBe(true);
    expect(window.length).toBeGreaterThanOrEqual(20);
    const seconds = await page({
      StartTimeStamp: Math.floor(from / 1000),
      EndTimeStamp: Math.floor(newest[0].time / 1000),
    });
    expect(seconds.length).toBeGreaterThanOrEqual(window.length);

    const one = await page({ TradeId: Number(newest[1].id) });
    expect(one.map((record) => record.ExecutionId)).toEqual([
      String(newest[1].id * 2 + 1),
      String(newest[1].id * 2),
    ]);
    expect(await page({ OrderId: newest[1].takerOrderId, TradeId: newest[1].id })).toHaveLength(1);
    expect(await page({ ExecutionId: newest[1].id * 2 })).toHaveLength(1);
    expect((await client.call('GetTradesHistory', { OMSId: 1, InstrumentId: 9999 })).payload).toMatchObject({
      errorcode: '104',
    });
  });

  it('shows a normal user only their own accounts', async () => {
    const { client } = await authenticatedClient(sandbox, 'trader@example.com', 'trader');
    clients.push(client);
    expect((await client.call('GetTradesHistory', { OMSId: 1 })).payload).toEqual([]);
    expect(
      (await client.call('GetTradesHistory', { OMSId: 1, AccountId: 21, InstrumentId: 1 })).payload,
    ).toEqual([]);
    for (const payload of [{ AccountId: 1000 }, { AccountId: 1 }, { UserId: 1 }]) {
      expect((await client.call('GetTradesHistory', { OMSId: 1, ...payload })).payload).toMatchObject({
        result: false,
        errorcode: '20',
      });
    }
  });
});
