import { GatewayTestClient } from './support/gateway-test-client';
import { RunningSandbox } from '../src/start-sandbox';
import { startTestSandbox } from './support/start-test-sandbox';

interface Login {
  readonly token: string;
  readonly session_token: string;
}

describe('sandbox gateway: faults', () => {
  let sandbox: RunningSandbox;
  const clients: GatewayTestClient[] = [];

  beforeAll(async () => {
    sandbox = await startTestSandbox({ SANDBOX_FLOW_RATE: '0', SANDBOX_HISTORY_HOURS: '0' });
  });

  afterEach(async () => {
    for (const fault of sandbox.exchange.faults.list()) {
      if (fault.enabled) sandbox.exchange.faults.set(fault.name, false);
    }
    sandbox.exchange.setFlowRate(0);
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });

  afterAll(async () => {
    await sandbox?.close();
  });

  async function login(): Promise<Login> {
    const response = await fetch(`${sandbox.authUrl}/api/v1/trade/auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=demo%40example.com&password=demo',
    });
    return ((await response.json()) as { data: Login }).data;
  }

  async function connect(session?: Login): Promise<GatewayTestClient> {
    const client = await GatewayTestClient.connect(gatewayUrl(session));
    clients.push(client);
    return client;
  }

  function gatewayUrl(session?: Login): string {
    const query = session ? `?session_token=${encodeURIComponent(session.session_token)}` : '';
    return `${sandbox.wsUrl}/WSGateway/${query}`;
  }

  it('drop-connections cuts every socket and refuses new ones with 503 while on', async () => {
    const [first, second] = [await connect(), await connect()];
    sandbox.exchange.faults.set('drop-connections', true);
    expect((await first.closed).code).toBe(1006);
    expect((await second.closed).code).toBe(1006);
    expect(await GatewayTestClient.upgradeStatus(gatewayUrl())).toBe(503);
    sandbox.exchange.faults.set('drop-connections', false);
    const again = await connect();
    expect((await again.call('Ping')).payload).toEqual({ msg: 'PONG' });
  });

  it('silence stops replies and events while the socket stays open', async () => {
    const client = await connect();
    await client.call('SubscribeLevel2', { OMSId: 1, InstrumentId: 1, Depth: 10 });
    sandbox.exchange.setFlowRate(300);
    await client.until(() => client.events('Level2UpdateEvent').length > 0);
    sandbox.exchange.faults.set('silence', true);
    // Frames written before the switch may still be on their way.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const received = client.frames.length;
    const btc = sandbox.exchange.market('btc_usdt')!;
    const version = btc.version;
    client.request('Ping');
    await client.until(() => btc.version > version + 20, 5_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(client.frames.length).toBe(received);
    expect(client.isOpen).toBe(true);

    sandbox.exchange.faults.set('silence', false);
    expect((await client.call('Ping')).payload).toEqual({ msg: 'PONG' });
    await client.waitFor((frame) => frame.n === 'Level2UpdateEvent', 5_000, received);
  });

  it('malformed-frame sends every socket a frame that is not JSON, every intervalMs', async () => {
    const [client, other] = [await connect(), await connect()];
    sandbox.exchange.faults.set('malformed-frame', true, { intervalMs: 50 });
    await client.until(() => client.unparsable.length >= 3, 10_000);
    await other.until(() => other.unparsable.length >= 3, 10_000);
    for (const text of client.unparsable) expect(() => JSON.parse(text) as unknown).toThrow();
    sandbox.exchange.faults.set('malformed-frame', false);
    const count = client.unparsable.length;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(client.unparsable.length).toBeLessThanOrEqual(count + 1);
    expect((await client.call('Ping')).payload).toEqual({ msg: 'PONG' });
  });

  it('expire-sessions closes authenticated sockets and voids every token', async () => {
    const session = await login();
    const withSession = await connect(session);
    const authenticated = await connect();
    const anonymous = await connect();
    expect(
      (await authenticated.call('WebAuthenticateUser', { SessionToken: session.token })).payload,
    ).toMatchObject({
      Authenticated: true,
    });
    sandbox.exchange.faults.set('expire-sessions', true);
    expect(await withSession.closed).toEqual({ code: 1008, reason: 'session expired' });
    expect((await authenticated.closed).code).toBe(1008);
    expect((await anonymous.call('Ping')).payload).toEqual({ msg: 'PONG' });
    expect(await GatewayTestClient.upgradeStatus(gatewayUrl(session))).toBe(401);
    expect((await anonymous.call('WebAuthenticateUser', { SessionToken: session.token })).payload).toEqual({
      Authenticated: false,
    });
    const fresh = await login();
    const again = await connect(fresh);
    expect((await again.call('WebAuthenticateUser', { SessionToken: fresh.token })).payload).toMatchObject({
      Authenticated: true,
    });
  });

  it('reports market status changes in GetInstruments', async () => {
    const client = await connect();
    const status = async () => {
      const instruments = (await client.call('GetInstruments', { OMSId: 1 })).payload as Record<
        string,
        string
      >[];
      return instruments.find((instrument) => instrument.Symbol === 'ETHUSDT')!;
    };
    expect(await status()).toMatchObject({ SessionStatus: 'Running', PreviousSessionStatus: 'Unknown' });
    sandbox.exchange.faults.set('pause-market', true, { instrument: 'eth_usdt' });
    expect(await status()).toMatchObject({ SessionStatus: 'Paused', PreviousSessionStatus: 'Running' });
    sandbox.exchange.faults.set('pause-market', false);
    sandbox.exchange.faults.set('halt-market', true, { instrument: 'eth_usdt' });
    expect(await status()).toMatchObject({ SessionStatus: 'Stopped', PreviousSessionStatus: 'Running' });
  });
});
