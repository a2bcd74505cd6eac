import { GatewayTestClient } from './support/gateway-test-client';
import { RunningSandbox } from '../src/start-sandbox';
import { startTestSandbox } from './support/start-test-sandbox';

describe('sandbox gateway: SANDBOX_TRADE_EVENT=TradeDataUpdateEvent', () => {
  let sandbox: RunningSandbox;
  let client: GatewayTestClient | undefined;

  beforeAll(async () => {
    sandbox = await startTestSandbox({
      SANDBOX_FLOW_RATE: '0',
      SANDBOX_HISTORY_HOURS: '0',
      SANDBOX_TRADE_EVENT: 'TradeDataUpdateEvent',
    });
  });

  afterAll(async () => {
    await client?.close();
    await sandbox?.close();
  });

  it('streams new trades as TradeDataUpdateEvent, the real gateway name', async () => {
    const response = await fetch(`${sandbox.authUrl}/api/v1/trade/auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=demo%40example.com&password=demo',
    });
    const { data } = (await response.json()) as { data: { token: string; session_token: string } };
    client = await GatewayTestClient.connect(
      `${sandbox.wsUrl}/WSGateway/?session_token=${data.session_token}`,
    );
    expect((await client.call('WebAuthenticateUser', { SessionToken: data.token })).payload).toMatchObject({
      Authenticated: true,
    });
    expect(
      (await client.call('SubscribeTrades', { OMSId: 1, InstrumentId: 1, IncludeLastCount: 0 })).payload,
    ).toEqual([]);
    sandbox.exchange.setFlowRate(300);
    await client.until(() => client!.events('TradeDataUpdateEvent').length > 0, 10_000);
    sandbox.exchange.setFlowRate(0);
    expect(client.events('OrderTradeEvent')).toEqual([]);
    const rows = client.events('TradeDataUpdateEvent')[0].payload as string[][];
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.length === 11 && row[1] === '1')).toBe(true);
    const btc = sandbox.exchange.market('btc_usdt')!;
    const ids = new Set(btc.tradeLog.newest(btc.tradeLog.size).map((trade) => String(trade.id)));
    expect(rows.every((row) => ids.has(row[0]))).toBe(true);
  });
});
