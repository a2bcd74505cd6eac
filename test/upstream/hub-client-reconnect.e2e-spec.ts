import { HubServer, MarketDataHub, MarketSimulator, RunningSandbox } from 'sandbox-exchange';
import { HubClient, HubClientState } from '../../src/upstream/hub/hub-client';
import { startTestSandbox } from '../support/start-test-sandbox';
import {
  entries,
  RebuiltBook,
  RecordingLogger,
  testHubClient,
  truthBook,
  waitFor,
} from './hub-client-support';

/** The sandbox pings this often and drops a client silent for twice as long. */
const SANDBOX_KEEPALIVE_MS = 500;
/** The client pings far more often than the sandbox's patience, so a busy machine never loses it one. */
const CLIENT_KEEPALIVE_MS = 100;
/** The client's patience with a silent server: a few of the sandbox's ping intervals. */
const SERVER_TIMEOUT_MS = 3 * SANDBOX_KEEPALIVE_MS;
const FAULTS = ['drop-connections', 'silence'] as const;
const INSTRUMENTS = ['btc_usdt', 'eth_btc'];

describe('HubClient: connection faults of the sandbox hub', () => {
  let sandbox: RunningSandbox;
  let client: HubClient;
  let states: HubClientState[];
  let logger: RecordingLogger;
  let books: RebuiltBook[];

  const market = (instrument: string) => sandbox.exchange.market(instrument) as MarketSimulator;
  const hubServer = () => sandbox.app.get(HubServer);

  function subscribeAll(): void {
    books = INSTRUMENTS.map((instrument) => {
      const rebuilt = new RebuiltBook();
      client.openBook(instrument, rebuilt);
      return rebuilt;
    });
  }

  async function connectedWithSnapshots(): Promise<void> {
    client.start();
    await waitFor(() => client.state === 'connected', 'the client to connect');
    await waitFor(() => books.every((rebuilt) => rebuilt.snapshots.length === 1), 'the first snapshots');
  }

  /** Moves every subscribed market on by a few versions, with the flow held still otherwise. */
  function stepMarkets(): void {
    for (const instrument of INSTRUMENTS) sandbox.exchange.stepMarket(market(instrument), 5);
  }

  /** Every book caught up with its market and equal to it, built from one snapshot and its deltas. */
  async function expectBooksRight(snapshots: number): Promise<void> {
    for (const [index, instrument] of INSTRUMENTS.entries()) {
      const rebuilt = books[index];
      await waitFor(() => rebuilt.version === market(instrument).version, `${instrument} to catch up`);
      expect(rebuilt.snapshots).toHaveLength(snapshots);
      const current = rebuilt.sinceSnapshot;
      expect(current.map((message) => message.version)).toEqual(
        current.map((_, i) => current[0].version + i),
      );
      expect(entries(rebuilt.book)).toEqual(entries(truthBook(market(instrument))));
    }
  }

  /** The drop reached every stream, and each was opened again on the connection that followed. */
  async function expectStreamsReopened(): Promise<void> {
    await waitFor(() => books.every((rebuilt) => rebuilt.snapshots.length === 2), 'fresh snapshots');
    for (const rebuilt of books) expect(rebuilt.interruptions).toHaveLength(1);
    expect(client.counters.streamRestarts).toBe(INSTRUMENTS.length);
    for (const instrument of INSTRUMENTS)
      expect(sandbox.app.get(MarketDataHub).streamCount(instrument)).toBe(1);
    expect(hubServer().connectionCount).toBe(1);
    stepMarkets();
    await expectBooksRight(2);
  }

  beforeAll(async () => {
    sandbox = await startTestSandbox({ SANDBOX_FLOW_RATE: '0' }, { hubKeepAliveMs: SANDBOX_KEEPALIVE_MS });
  });

  beforeEach(() => {
    ({ client, states, logger } = testHubClient(sandbox.baseUrl, {
      serverTimeoutMs: SERVER_TIMEOUT_MS,
      keepAliveIntervalMs: CLIENT_KEEPALIVE_MS,
    }));
    subscribeAll();
  });

  afterEach(async () => {
    for (const name of FAULTS)
      if (sandbox.exchange.faults.isOn(name)) sandbox.exchange.faults.set(name, false);
    await client.stop();
    await waitFor(() => hubServer().connectionCount === 0, 'every hub connection to close');
  });

  afterAll(async () => {
    await sandbox.close();
  });

  it('drop-connections: reconnects by itself once the hub takes connections again, streams reopened', async () => {
    await connectedWithSnapshots();
    sandbox.exchange.faults.set('drop-connections', true);
    await waitFor(() => client.state === 'reconnecting', 'the client to notice');
    await waitFor(
      () => books.every((rebuilt) => rebuilt.interruptions.length === 1),
      'every stream to break',
    );
    expect(books[0].interruptions[0]).toMatch(/Book stream failed/);
    // Several refused tries while the fault is on, and the client keeps at it.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(client.state).toBe('reconnecting');

    sandbox.exchange.faults.set('drop-connections', false);
    await waitFor(() => client.state === 'connected', 'the client to reconnect');
    expect(states).toEqual(['connecting', 'connected', 'reconnecting', 'connected']);
    expect(client.counters.reconnects).toBe(1);
    await expectStreamsReopened();
  });

  it('hub-close with allowReconnect: the official reconnect brings the connection and the streams back', async () => {
    await connectedWithSnapshots();
    sandbox.exchange.faults.set('hub-close', true, { allowReconnect: true });
    await waitFor(() => books.every((rebuilt) => rebuilt.snapshots.length === 2), 'fresh snapshots');
    expect(client.state).toBe('connected');
    expect(states).toEqual(['connecting', 'connected', 'reconnecting', 'connected']);
    expect(client.counters.reconnects).toBe(1);
    await expectStreamsReopened();
  });

  it('hub-close without allowReconnect: the supervisor builds a new connection and reopens the streams', async () => {
    await connectedWithSnapshots();
    sandbox.exchange.faults.set('hub-close', true);
    await waitFor(() => books.every((rebuilt) => rebuilt.snapshots.length === 2), 'fresh snapshots');
    expect(client.state).toBe('connected');
    expect(states).toEqual(['connecting', 'connected', 'disconnected', 'connecting', 'connected']);
    expect(logger.lines).toContainEqual(
      expect.stringMatching(
        /disconnected \(Server returned an error on close: Connection closed by the server\.\)/,
      ),
    );
    expect(client.counters.reconnects).toBe(1);
    await expectStreamsReopened();
  });

  it('keeps retrying a first start the hub refuses, and connects once it is let in', async () => {
    sandbox.exchange.faults.set('drop-connections', true);
    client.start();
    await waitFor(
      () => logger.lines.filter((line) => line.includes('market-data hub')).length >= 3,
      'several refused starts',
    );
    expect(client.state).toBe('connecting');
    expect(books.every((rebuilt) => rebuilt.messages.length === 0)).toBe(true);

    sandbox.exchange.faults.set('drop-connections', false);
    await waitFor(() => books.every((rebuilt) => rebuilt.snapshots.length === 1), 'the first snapshots');
    expect(states).toEqual(['connecting', 'connected']);
    expect(client.counters).toEqual({ reconnects: 0, malformedMessages: 0, streamRestarts: 0 });
    stepMarkets();
    await expectBooksRight(1);
  });

  it('silence longer than the server timeout: gives the connection up, reconnects once the hub talks again', async () => {
    await connectedWithSnapshots();
    sandbox.exchange.faults.set('silence', true);
    const silencedAt = Date.now();
    // Changes the client never hears of: only a fresh snapshot can bring its books right again.
    stepMarkets();
    await waitFor(() => client.state === 'reconnecting', 'the client to time out', 10_000);
    expect(Date.now() - silencedAt).toBeGreaterThanOrEqual(SERVER_TIMEOUT_MS - 50);
    expect(books.every((rebuilt) => rebuilt.interruptions[0]?.includes('Server timeout elapsed'))).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 2 * SERVER_TIMEOUT_MS));
    expect(client.state).toBe('reconnecting');

    sandbox.exchange.faults.set('silence', false);
    await waitFor(() => client.state === 'connected', 'the client to reconnect', 10_000);
    await expectStreamsReopened();
  });
});
