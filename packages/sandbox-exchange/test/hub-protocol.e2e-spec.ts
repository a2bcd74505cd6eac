import { HubConnection, HubConnectionState } from '@microsoft/signalr';
import { HubServer } from '../src/hub/hub-server';
import { RunningSandbox } from '../src/start-sandbox';
import { settlesWithin } from './support/settles-within';
import { startTestSandbox } from './support/start-test-sandbox';
import { BookItem, BookMirror, hubClient, RawHubClient, RS, waitFor } from './hub-test-support';

const KEEPALIVE_MS = 500;

describe('sandbox market-data hub: handshake, keep-alive and broken input', () => {
  let sandbox: RunningSandbox;
  let hubUrl: string;
  let raw: RawHubClient | undefined;
  let connection: HubConnection | undefined;

  beforeAll(async () => {
    sandbox = await startTestSandbox({ SANDBOX_FLOW_RATE: '0' }, { hubKeepAliveMs: KEEPALIVE_MS });
    hubUrl = `${sandbox.wsUrl}/marketdata/info`;
  });

  afterEach(async () => {
    await raw?.close();
    raw = undefined;
    await connection?.stop();
    connection = undefined;
  });

  afterAll(async () => {
    await sandbox.close();
  });

  /** The official client still gets a book: whatever broke before did not take the server down. */
  async function expectServerStillServes(): Promise<void> {
    connection = hubClient(sandbox.baseUrl, { keepAliveMs: 100 });
    await connection.start();
    const mirror = new BookMirror().follow(connection.stream<BookItem>('Book', 'eth_usdt'));
    await waitFor(() => mirror.items.length === 1, 'a snapshot on a new connection');
  }

  it('refuses another protocol in the handshake and closes', async () => {
    raw = await RawHubClient.open(hubUrl);
    raw.send(`{"protocol":"messagepack","version":1}${RS}`);
    await raw.waitForClose();
    expect(raw.frames).toEqual([`{"error":"Requested protocol 'messagepack' is not available."}${RS}`]);
  });

  it('refuses an unsupported version and a handshake that is not JSON', async () => {
    raw = await RawHubClient.open(hubUrl);
    raw.send(`{"protocol":"json","version":2}${RS}`);
    await raw.waitForClose();
    expect(raw.parsed()).toEqual([
      { error: "The server does not support version 2 of the 'json' protocol." },
    ]);

    raw = await RawHubClient.open(hubUrl);
    raw.send(`hello${RS}`);
    await raw.waitForClose();
    expect(raw.parsed()).toEqual([
      {
        error:
          'An unexpected error occurred during connection handshake. InvalidDataException: Error reading JSON.',
      },
    ]);
    await expectServerStillServes();
  });

  it.each([
    ['text that is not JSON', `garbage!${RS}`, 'Error reading JSON.'],
    [
      'a message without a type',
      `{"target":"Book","arguments":[]}${RS}`,
      "Missing required property 'type'.",
    ],
    ['a type that is not a number', `{"type":"ping"}${RS}`, "Expected 'type' to be of type Integer."],
    [
      'a stream invocation without an id',
      `{"type":4,"target":"Book","arguments":["btc_usdt"]}${RS}`,
      "Missing required property 'invocationId'.",
    ],
    [
      'a message above 32 KiB',
      `{"type":6,"pad":"${'x'.repeat(40 * 1024)}"}${RS}`,
      'The maximum message size of 32768B was exceeded.',
    ],
  ])('closes the connection on %s with a Close message naming the error', async (_case, text, detail) => {
    const hubServer = sandbox.app.get(HubServer);
    const errorsBefore = hubServer.protocolErrorCount;
    raw = await RawHubClient.connect(hubUrl);
    raw.send(`{"type":4,"invocationId":"0","target":"Book","arguments":["btc_usdt"]}${RS}`);
    await raw.waitForMessage((message) => message.startsWith('{"type":2'), 'the snapshot');
    raw.send(text);
    expect(await raw.waitForClose()).toBe(1000);
    expect(raw.parsed().pop()).toEqual({
      type: 7,
      error: `Connection closed with an error. InvalidDataException: ${detail}`,
    });
    expect(hubServer.protocolErrorCount).toBe(errorsBefore + 1);
    await expectServerStillServes();
  });

  it('sends a ping when it had nothing else to send for the keep-alive interval', async () => {
    raw = await RawHubClient.connect(hubUrl);
    const ping = raw.waitForMessage((message) => message === '{"type":6}', 'a ping');
    // Not before the keep-alive interval: a timer just short of it fires first.
    expect(await settlesWithin(ping, KEEPALIVE_MS - 50)).toBe(false);
    await ping;
    const pings = () => raw?.messages.filter((message) => message === '{"type":6}').length ?? 0;
    // Keep the client alive with its own pings while counting the server's.
    const clientPings = setInterval(() => raw?.send(`{"type":6}${RS}`), 100);
    try {
      await waitFor(() => pings() >= 3, 'three pings', 10_000);
    } finally {
      clearInterval(clientPings);
    }
    expect(raw.closed).toBe(false);
  });

  it('closes a connection whose client sent nothing for twice the keep-alive interval', async () => {
    raw = await RawHubClient.connect(hubUrl);
    const closed = raw.waitForClose(10_000);
    // Not before twice the keep-alive interval: a timer just short of it fires first.
    expect(await settlesWithin(closed, 2 * KEEPALIVE_MS - 50)).toBe(false);
    await closed;
    expect(raw.parsed().pop()).toEqual({
      type: 7,
      error: 'Client timeout elapsed without receiving a message from the client.',
      allowReconnect: true,
    });
  });

  it('closes the connection when the client sends Close, and accepts the official client stopping', async () => {
    raw = await RawHubClient.connect(hubUrl);
    raw.send(`{"type":7}${RS}`);
    expect(await raw.waitForClose()).toBe(1000);

    connection = hubClient(sandbox.baseUrl, { keepAliveMs: 100 });
    await connection.start();
    const hubServer = sandbox.app.get(HubServer);
    await waitFor(() => hubServer.connectionCount === 1, 'one connection on the server');
    await connection.stop();
    expect(connection.state).toBe(HubConnectionState.Disconnected);
    await waitFor(() => hubServer.connectionCount === 0, 'the server to drop the connection');
  });

  it('keeps the official client connected through quiet periods with its keep-alive', async () => {
    connection = hubClient(sandbox.baseUrl, { keepAliveMs: 100, serverTimeoutMs: 3 * KEEPALIVE_MS });
    let closedWith: Error | undefined | null = null;
    connection.onclose((error) => {
      closedWith = error;
    });
    await connection.start();
    await new Promise((resolve) => setTimeout(resolve, 5 * KEEPALIVE_MS));
    expect(closedWith).toBeNull();
    expect(connection.state).toBe(HubConnectionState.Connected);
  });
});

describe('sandbox market-data hub: shutdown', () => {
  it('closes every hub connection when the application closes', async () => {
    const sandbox = await startTestSandbox({ SANDBOX_FLOW_RATE: '50' });
    const raw = await RawHubClient.connect(`${sandbox.wsUrl}/marketdata/info`);
    const connection = hubClient(sandbox.baseUrl);
    let closedWith: Error | undefined;
    connection.onclose((error) => {
      closedWith = error;
    });
    try {
      await connection.start();
      const mirror = new BookMirror().follow(connection.stream<BookItem>('Book', 'btc_usdt'));
      await waitFor(() => mirror.items.length > 1, 'a snapshot and a delta');

      // Done before a client's closing handshake would have to end (30 s).
      const closing = sandbox.close();
      expect(await settlesWithin(closing, 10_000)).toBe(true);
      await closing;
      expect(await raw.waitForClose()).toBe(1001);
      await waitFor(
        () => connection.state === HubConnectionState.Disconnected,
        'the client to see the close',
      );
      expect(closedWith?.message).toContain('1001');
      expect(sandbox.app.get(HubServer).connectionCount).toBe(0);
    } finally {
      await connection.stop();
      await raw.close();
    }
  });
});
