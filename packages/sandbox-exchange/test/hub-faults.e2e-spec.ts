import { HubConnection, HubConnectionState } from '@microsoft/signalr';
import { MALFORMED_FRAME } from '../src/hub/hub-faults';
import { HubServer } from '../src/hub/hub-server';
import { RunningSandbox } from '../src/start-sandbox';
import { MarketSimulator } from '../src/simulation/market-simulator';
import { startTestSandbox } from './support/start-test-sandbox';
import {
  BookItem,
  BookMirror,
  hubClient,
  HubClientOptions,
  RawHubClient,
  RS,
  upgradeStatus,
  waitFor,
} from './hub-test-support';

const KEEPALIVE_MS = 500;
const SWITCHES = ['drop-connections', 'silence', 'malformed-frame'] as const;

/** The official client with a stream that it opens again after every reconnect, as a service must. */
class ResubscribingClient {
  readonly connection: HubConnection;
  readonly mirrors: BookMirror[] = [];
  readonly events: string[] = [];
  closeError?: Error;

  constructor(
    baseUrl: string,
    private readonly instrument: string,
    options: HubClientOptions,
  ) {
    this.connection = hubClient(baseUrl, { keepAliveMs: 100, ...options });
    this.connection.onreconnecting(() => this.events.push('reconnecting'));
    this.connection.onreconnected(() => {
      this.events.push('reconnected');
      this.openStream();
    });
    this.connection.onclose((error) => {
      this.events.push('closed');
      this.closeError = error;
    });
  }

  async start(): Promise<this> {
    await this.connection.start();
    this.openStream();
    await waitFor(() => this.latest.items.length > 0, 'the first snapshot');
    return this;
  }

  get latest(): BookMirror {
    return this.mirrors[this.mirrors.length - 1];
  }

  private openStream(): void {
    this.mirrors.push(new BookMirror().follow(this.connection.stream<BookItem>('Book', this.instrument)));
  }
}

describe('sandbox market-data hub: connection faults', () => {
  let sandbox: RunningSandbox;
  let btc: MarketSimulator;
  let hubUrl: string;
  let client: ResubscribingClient | undefined;
  let raw: RawHubClient | undefined;

  beforeAll(async () => {
    sandbox = await startTestSandbox({ SANDBOX_FLOW_RATE: '0' }, { hubKeepAliveMs: KEEPALIVE_MS });
    btc = sandbox.exchange.market('btc_usdt') as MarketSimulator;
    hubUrl = `${sandbox.wsUrl}/marketdata/info`;
  });

  afterEach(async () => {
    for (const name of SWITCHES)
      if (sandbox.exchange.faults.isOn(name)) sandbox.exchange.faults.set(name, false);
    await client?.connection.stop();
    client = undefined;
    await raw?.close();
    raw = undefined;
  });

  afterAll(async () => {
    await sandbox.close();
  });

  it('drop-connections: terminates every connection and refuses new ones until it is switched off', async () => {
    client = await new ResubscribingClient(sandbox.baseUrl, 'btc_usdt', {
      negotiate: true,
      reconnectDelays: Array.from({ length: 100 }, () => 50),
    }).start();
    const skipping = await new ResubscribingClient(sandbox.baseUrl, 'eth_btc', {
      reconnectDelays: Array.from({ length: 100 }, () => 50),
    }).start();
    try {
      sandbox.exchange.faults.set('drop-connections', true);
      await waitFor(() => sandbox.app.get(HubServer).connectionCount === 0, 'every connection to go');
      expect(client.connection.state).toBe(HubConnectionState.Reconnecting);
      expect(skipping.connection.state).toBe(HubConnectionState.Reconnecting);

      const negotiate = await fetch(`${sandbox.baseUrl}/marketdata/info/negotiate?negotiateVersion=1`, {
        method: 'POST',
      });
      expect(negotiate.status).toBe(503);
      expect(await negotiate.json()).toEqual({
        errors: [{ code: '', message: 'System is currently overloaded' }],
      });
      expect(await upgradeStatus(hubUrl)).toBe(503);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(client.connection.state).toBe(HubConnectionState.Reconnecting);

      sandbox.exchange.faults.set('drop-connections', false);
      for (const resubscribing of [client, skipping]) {
        await waitFor(
          () => resubscribing.latest.items.length > 0 && resubscribing.mirrors.length === 2,
          'a new snapshot after the reconnect',
        );
        expect(resubscribing.events).toEqual(['reconnecting', 'reconnected']);
        expect(resubscribing.mirrors[0].error?.message).toMatch(/connection being closed|WebSocket closed/);
        expect(resubscribing.latest.snapshots).toHaveLength(1);
      }
      expect(client.connection.connectionId).toEqual(expect.any(String));
      expect(skipping.connection.connectionId).toBeNull();
    } finally {
      await skipping.connection.stop();
    }
  });

  it('hub-close without allowReconnect: the official client closes for good', async () => {
    client = await new ResubscribingClient(sandbox.baseUrl, 'btc_usdt', {
      reconnectDelays: [0, 50, 50],
    }).start();
    sandbox.exchange.faults.set('hub-close', true);
    await waitFor(() => client?.events.includes('closed') === true, 'the client to close');
    expect(client.events).toEqual(['closed']);
    expect(client.closeError?.message).toBe(
      'Server returned an error on close: Connection closed by the server.',
    );
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(client.connection.state).toBe(HubConnectionState.Disconnected);
    expect(sandbox.exchange.faults.isOn('hub-close')).toBe(false);
  });

  it('hub-close with allowReconnect: the official client reconnects and streams again', async () => {
    client = await new ResubscribingClient(sandbox.baseUrl, 'btc_usdt', {
      reconnectDelays: [0, 50, 50],
    }).start();
    raw = await RawHubClient.connect(hubUrl);
    sandbox.exchange.faults.set('hub-close', true, { allowReconnect: true });
    expect(await raw.waitForClose()).toBe(1000);
    expect(raw.parsed().pop()).toEqual({
      type: 7,
      error: 'Connection closed by the server.',
      allowReconnect: true,
    });
    await waitFor(() => client?.mirrors.length === 2 && client.latest.items.length > 0, 'a new snapshot');
    expect(client.events).toEqual(['reconnecting', 'reconnected']);
    expect(client.connection.state).toBe(HubConnectionState.Connected);
  });

  it('silence: sends nothing while on, so the client times out; streams go on with later versions after', async () => {
    client = await new ResubscribingClient(sandbox.baseUrl, 'btc_usdt', {
      serverTimeoutMs: 3 * KEEPALIVE_MS,
    }).start();
    raw = await RawHubClient.connect(hubUrl);
    raw.send(`{"type":4,"invocationId":"0","target":"Book","arguments":["btc_usdt"]}${RS}`);
    await raw.waitForMessage((message) => message.startsWith('{"type":2'), 'the snapshot');
    sandbox.exchange.stepMarket(btc, 3);
    await waitFor(() => client?.latest.version === btc.version, 'the client to follow');
    const versionBefore = btc.version;
    const items = () => raw?.parsed().filter((message) => message.type === 2) ?? [];
    await waitFor(() => items().length === 4, 'the raw stream to follow');

    sandbox.exchange.faults.set('silence', true);
    const received = raw.messages.length;
    const silencedAt = Date.now();
    sandbox.exchange.stepMarket(btc, 4);
    await waitFor(() => client?.events.includes('closed') === true, 'the client to time out', 10_000);
    expect(client.closeError?.message).toBe(
      'Server timeout elapsed without receiving a message from the server.',
    );
    expect(Date.now() - silencedAt).toBeGreaterThanOrEqual(KEEPALIVE_MS);
    // The raw client has sent nothing since before the silence, longer than the server's client
    // timeout: it is neither written to nor dropped while the server is silent.
    const silentFor = Date.now() - silencedAt;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 2 * KEEPALIVE_MS + 200 - silentFor)));
    expect(raw.messages).toHaveLength(received);
    expect(raw.closed).toBe(false);

    sandbox.exchange.faults.set('silence', false);
    raw.send(`{"type":6}${RS}`);
    sandbox.exchange.stepMarket(btc, 2);
    await waitFor(() => items().length === 6, 'the next items');
    const versions = items().map((message) => (message.item as BookItem).version);
    expect(versions.slice(0, 4)).toEqual([
      versionBefore - 3,
      versionBefore - 2,
      versionBefore - 1,
      versionBefore,
    ]);
    expect(versions.slice(4)).toEqual([versionBefore + 5, versionBefore + 6]);
    await raw.waitForMessage((message) => message === '{"type":6}', 'pings again');
  });

  it('malformed-frame: sends a terminated frame that is not JSON every intervalMs; the official client drops', async () => {
    client = await new ResubscribingClient(sandbox.baseUrl, 'btc_usdt', {}).start();
    raw = await RawHubClient.connect(hubUrl);
    sandbox.exchange.faults.set('malformed-frame', true, { intervalMs: 100 });
    await waitFor(() => client?.events.includes('closed') === true, 'the client to drop');
    expect(client.closeError).toBeInstanceOf(Error);
    expect(client.closeError?.message).toMatch(/JSON/);

    await waitFor(
      () => (raw?.frames.filter((frame) => frame === MALFORMED_FRAME).length ?? 0) >= 3,
      'three frames',
    );
    expect(MALFORMED_FRAME.endsWith(RS)).toBe(true);
    expect(() => JSON.parse(MALFORMED_FRAME.slice(0, -1))).toThrow();
    sandbox.exchange.faults.set('malformed-frame', false);
    const sent = raw.frames.length;
    raw.send(`{"type":6}${RS}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(raw.frames.slice(sent).filter((frame) => frame === MALFORMED_FRAME)).toHaveLength(0);
  });
});
