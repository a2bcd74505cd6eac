import { HubNegotiation, HubServer, MarketDataHub, MarketSimulator, RunningSandbox } from 'sandbox-exchange';
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

describe('HubClient against the sandbox hub', () => {
  let sandbox: RunningSandbox;
  let client: HubClient;
  let states: HubClientState[];
  let logger: RecordingLogger;

  const market = (instrument: string) => sandbox.exchange.market(instrument) as MarketSimulator;
  const hubServer = () => sandbox.app.get(HubServer);
  const streamCount = (instrument: string) => sandbox.app.get(MarketDataHub).streamCount(instrument);

  /** Lets the synthetic flow change the books for a while, then holds them still. */
  async function runFlow(ms: number): Promise<void> {
    sandbox.exchange.setFlowRate(40);
    await new Promise((resolve) => setTimeout(resolve, ms));
    sandbox.exchange.setFlowRate(0);
  }

  /** Waits until `rebuilt` has caught up with its market, then compares it with the market's book. */
  async function expectTruth(rebuilt: RebuiltBook, instrument: string): Promise<void> {
    await waitFor(
      () => rebuilt.version === market(instrument).version,
      `${instrument} to reach the market version`,
    );
    expect(entries(rebuilt.book)).toEqual(entries(truthBook(market(instrument))));
  }

  async function connected(): Promise<void> {
    client.start();
    await waitFor(() => client.state === 'connected', 'the client to connect');
  }

  beforeAll(async () => {
    sandbox = await startTestSandbox({ SANDBOX_FLOW_RATE: '0' });
  });

  beforeEach(() => {
    ({ client, states, logger } = testHubClient(sandbox.baseUrl, { now: () => 1_700_000_000_123 }));
  });

  afterEach(async () => {
    sandbox.exchange.setFlowRate(0);
    for (const name of ['malformed-frame'] as const)
      if (sandbox.exchange.faults.isOn(name)) sandbox.exchange.faults.set(name, false);
    await client.stop();
  });

  afterAll(async () => {
    await sandbox.close();
  });

  it('streams a snapshot, then deltas that rebuild the book equal to the market at the same version', async () => {
    await connected();
    const btc = new RebuiltBook();
    client.openBook('btc_usdt', btc);
    await waitFor(() => btc.messages.length === 1, 'the snapshot');
    const [snapshot] = btc.messages;
    expect(snapshot).toMatchObject({
      instrument: 'btc_usdt',
      snapshot: true,
      version: market('btc_usdt').version,
    });
    expect(snapshot.time).toBe(1_700_000_000_123);
    expect(snapshot.updates.length).toBeGreaterThan(10);
    await expectTruth(btc, 'btc_usdt');

    await runFlow(400);
    await expectTruth(btc, 'btc_usdt');
    const deltas = btc.messages.slice(1);
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.every((message) => !message.snapshot)).toBe(true);
    expect(deltas.map((message) => message.version)).toEqual(
      deltas.map((_, index) => snapshot.version + index + 1),
    );
    expect(deltas.some((message) => message.updates.some((update) => update.amount === '0'))).toBe(true);
    expect(btc.interruptions).toEqual([]);
    expect(client.counters).toEqual({ reconnects: 0, malformedMessages: 0, streamRestarts: 0 });
    expect(states).toEqual(['connecting', 'connected']);
  });

  it('carries several instruments on one connection, 18-decimal amounts to the last digit', async () => {
    const instruments = ['btc_usdt', 'eth_btc', 'pepe_eth'];
    // Subscribed before the start: the streams open once the connection is up.
    const books = instruments.map((instrument) => {
      const rebuilt = new RebuiltBook();
      client.openBook(instrument, rebuilt);
      return rebuilt;
    });
    await connected();
    await waitFor(() => books.every((rebuilt) => rebuilt.snapshots.length === 1), 'every snapshot');
    expect(hubServer().connectionCount).toBe(1);
    for (const instrument of instruments) expect(streamCount(instrument)).toBe(1);

    await runFlow(400);
    for (const [index, instrument] of instruments.entries()) {
      await expectTruth(books[index], instrument);
      expect(books[index].messages.every((message) => message.instrument === instrument)).toBe(true);
    }
    const pepeAmounts = [...books[2].book.bids.values(), ...books[2].book.asks.values()];
    expect(pepeAmounts.some((amount) => /\.\d{18}$/.test(amount))).toBe(true);
  });

  it('restart() drops the stream and opens a fresh one that starts with a new snapshot', async () => {
    await connected();
    const btc = new RebuiltBook();
    const subscription = client.openBook('btc_usdt', btc);
    await waitFor(() => btc.snapshots.length === 1, 'the snapshot');
    await runFlow(200);
    await waitFor(() => btc.version === market('btc_usdt').version, 'the deltas');

    subscription.restart();
    await waitFor(() => btc.snapshots.length === 2, 'a second snapshot');
    expect(btc.sinceSnapshot[0].version).toBe(market('btc_usdt').version);
    expect(client.counters.streamRestarts).toBe(1);
    expect(btc.interruptions).toEqual([]);
    // The old stream was cancelled on the server, not left running beside the new one.
    await waitFor(() => streamCount('btc_usdt') === 1, 'one stream on the server');
    await runFlow(200);
    await expectTruth(btc, 'btc_usdt');
  });

  it('close() ends the stream on the server and tells the listener nothing more', async () => {
    await connected();
    const btc = new RebuiltBook();
    const eth = new RebuiltBook();
    const subscription = client.openBook('btc_usdt', btc);
    client.openBook('eth_btc', eth);
    await waitFor(() => btc.snapshots.length === 1 && eth.snapshots.length === 1, 'the snapshots');
    subscription.close();
    await waitFor(() => streamCount('btc_usdt') === 0, 'the server to stop the stream');
    const received = btc.messages.length;
    await runFlow(300);
    await expectTruth(eth, 'eth_btc');
    expect(btc.messages).toHaveLength(received);
    expect(btc.interruptions).toEqual([]);
  });

  it('malformed-frame: skips each malformed frame and keeps the connection and the books right', async () => {
    await connected();
    const btc = new RebuiltBook();
    const eth = new RebuiltBook();
    client.openBook('btc_usdt', btc);
    client.openBook('eth_btc', eth);
    await waitFor(() => btc.snapshots.length === 1 && eth.snapshots.length === 1, 'the snapshots');

    sandbox.exchange.faults.set('malformed-frame', true, { intervalMs: 50 });
    await runFlow(500);
    await waitFor(() => client.counters.malformedMessages >= 5, 'several malformed frames');
    sandbox.exchange.faults.set('malformed-frame', false);

    expect(states).toEqual(['connecting', 'connected']);
    expect(client.counters.reconnects).toBe(0);
    expect(hubServer().protocolErrorCount).toBe(0);
    expect(btc.snapshots).toHaveLength(1);
    expect(btc.interruptions).toEqual([]);
    expect(logger.lines.filter((line) => line.startsWith('warn'))[0]).toMatch(/skipped a malformed message/);
    await expectTruth(btc, 'btc_usdt');
    await expectTruth(eth, 'eth_btc');
  });

  it('reports a stream the server refuses and keeps trying it, without touching the others', async () => {
    await connected();
    const unknown = new RebuiltBook();
    const btc = new RebuiltBook();
    client.openBook('nope_usdt', unknown);
    client.openBook('btc_usdt', btc);
    await waitFor(() => unknown.interruptions.length >= 3, 'the refused stream to be retried');
    expect(unknown.interruptions[0]).toMatch(/Unknown instrument 'nope_usdt'/);
    expect(unknown.messages).toEqual([]);
    expect(btc.snapshots).toHaveLength(1);
    expect(btc.interruptions).toEqual([]);
    expect(states).toEqual(['connecting', 'connected']);
  });

  it('negotiates first when skipNegotiation is off, and streams the same', async () => {
    await client.stop();
    ({ client, states } = testHubClient(sandbox.baseUrl, { skipNegotiation: false }));
    // Watches the sandbox's negotiation without changing what it does.
    const claims = jest.spyOn(sandbox.app.get(HubNegotiation), 'claim');
    const btc = new RebuiltBook();
    client.openBook('btc_usdt', btc);
    await connected();
    await waitFor(() => btc.snapshots.length === 1, 'the snapshot');
    expect(claims.mock.results.map((result) => result.value)).toEqual(['claimed']);
    claims.mockRestore();
    await runFlow(200);
    await expectTruth(btc, 'btc_usdt');
  });

  it('stop() closes the connection and every timer; a stopped client can start again', async () => {
    const btc = new RebuiltBook();
    client.openBook('btc_usdt', btc);
    await connected();
    await waitFor(() => btc.snapshots.length === 1, 'the snapshot');
    await client.stop();
    expect(client.state).toBe('disconnected');
    await waitFor(() => hubServer().connectionCount === 0, 'the server to see the client go');
    expect(btc.interruptions).toEqual([]);

    await connected();
    await waitFor(() => btc.snapshots.length === 2, 'a snapshot on the new connection');
    expect(states).toEqual(['connecting', 'connected', 'disconnected', 'connecting', 'connected']);
    // Jest's exit without open handles (the suite's run) shows that the stopped client left none.
  });
});
