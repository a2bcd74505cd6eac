import { HubConnection, HubConnectionState } from '@microsoft/signalr';
import { isLosslessNumber, LosslessNumber, parse } from 'lossless-json';
import { Side } from '../src/engine/side';
import { formatUnits } from '../src/engine/units';
import { HubServer } from '../src/hub/hub-server';
import { MarketDataHub } from '../src/hub/market-data-hub';
import { RunningSandbox } from '../src/start-sandbox';
import { MarketSimulator } from '../src/simulation/market-simulator';
import { startTestSandbox } from './support/start-test-sandbox';
import {
  BookItem,
  BookMirror,
  hubClient,
  plainBook,
  RawHubClient,
  RS,
  sorted,
  upgradeStatus,
  waitFor,
} from './hub-test-support';

describe('sandbox market-data hub: Book stream', () => {
  let sandbox: RunningSandbox;
  let btc: MarketSimulator;
  let connection: HubConnection | undefined;
  let raw: RawHubClient | undefined;

  beforeAll(async () => {
    sandbox = await startTestSandbox({ SANDBOX_FLOW_RATE: '0' });
    btc = sandbox.exchange.market('btc_usdt') as MarketSimulator;
  });

  afterEach(async () => {
    sandbox.exchange.setFlowRate(0);
    await connection?.stop();
    connection = undefined;
    await raw?.close();
    raw = undefined;
  });

  afterAll(async () => {
    await sandbox.close();
  });

  async function connect(negotiate = false): Promise<HubConnection> {
    connection = hubClient(sandbox.baseUrl, { negotiate });
    await connection.start();
    return connection;
  }

  async function negotiate(query: string): Promise<Record<string, unknown>> {
    const response = await fetch(`${sandbox.baseUrl}/marketdata/info/negotiate${query}`, { method: 'POST' });
    expect(response.status).toBe(200);
    return (await response.json()) as Record<string, unknown>;
  }

  it('completes the handshake with the official client without negotiation', async () => {
    const hub = await connect();
    expect(hub.state).toBe(HubConnectionState.Connected);
    expect(hub.connectionId).toBeNull();
  });

  it('negotiates with the official client and streams over the negotiated connection', async () => {
    const hub = await connect(true);
    expect(hub.connectionId).toEqual(expect.any(String));
    const mirror = new BookMirror().follow(hub.stream<BookItem>('Book', 'eth_usdt'));
    await waitFor(() => mirror.items.length === 1, 'the snapshot');
    expect(mirror.items[0].snapshot).toBe(true);
  });

  it('lets each negotiated token open one websocket, soon after negotiation', async () => {
    const reply = await negotiate('?negotiateVersion=1');
    expect(reply).toEqual({
      connectionId: expect.any(String),
      connectionToken: expect.any(String),
      negotiateVersion: 1,
      availableTransports: [{ transport: 'WebSockets', transferFormats: ['Text', 'Binary'] }],
    });
    const url = `${sandbox.wsUrl}/marketdata/info?id=${reply.connectionToken}`;
    raw = await RawHubClient.connect(url);
    expect(await upgradeStatus(url)).toBe(409);
    expect(await upgradeStatus(`${sandbox.wsUrl}/marketdata/info?id=made-up`)).toBe(404);
    await raw.close();
    await waitFor(() => sandbox.app.get(HubServer).connectionCount === 0, 'the connection to end');
    expect(await upgradeStatus(url)).toBe(404);
  });

  it('answers a client of negotiate version 0 without a token; its connection id opens the websocket', async () => {
    const reply = await negotiate('');
    expect(reply.negotiateVersion).toBe(0);
    expect(reply).not.toHaveProperty('connectionToken');
    raw = await RawHubClient.connect(`${sandbox.wsUrl}/marketdata/info?id=${reply.connectionId}`);
  });

  it('streams the whole book first, sorted ascending on both sides, then each change with its version', async () => {
    const hub = await connect();
    const mirror = new BookMirror().follow(hub.stream<BookItem>('Book', 'btc_usdt'));
    await waitFor(() => mirror.items.length === 1, 'the snapshot');

    const [snapshot] = mirror.items;
    expect(snapshot).toMatchObject({ instrument: 'btc_usdt', snapshot: true, version: btc.version });
    expect(Object.keys(snapshot)).toEqual([
      'instrument',
      'bids',
      'asks',
      'version',
      'askTotalAmount',
      'bidTotalAmount',
      'snapshot',
    ]);
    expect(snapshot.bids.length).toBeGreaterThan(10);
    for (const side of [snapshot.bids, snapshot.asks]) {
      const prices = side.map((entry) => entry.price);
      expect(prices).toEqual([...prices].sort((a, b) => a - b));
      expect(Object.keys(side[0])).toEqual(['amount', 'price']);
    }
    expect(sorted(mirror.book.bids)).toEqual(sorted(plainBook(btc).bids));
    expect(sorted(mirror.book.asks)).toEqual(sorted(plainBook(btc).asks));

    sandbox.exchange.stepMarket(btc, 30);
    await waitFor(() => mirror.version === btc.version, 'the stream to reach the market version');
    const deltas = mirror.items.slice(1);
    expect(deltas.map((item) => item.version)).toEqual(
      Array.from({ length: deltas.length }, (_, i) => snapshot.version + 1 + i),
    );
    for (const delta of deltas) {
      expect(delta.snapshot).toBe(false);
      expect(delta.instrument).toBe('btc_usdt');
      expect(delta.bids.length + delta.asks.length).toBeGreaterThan(0);
    }
    const last = deltas[deltas.length - 1];
    expect(last.askTotalAmount).toBe(Number(formatUnits(btc.engine.totalAmount(Side.Sell), 8)));
    expect(last.bidTotalAmount).toBe(Number(formatUnits(btc.engine.totalAmount(Side.Buy), 8)));
    expect(sorted(mirror.book.bids)).toEqual(sorted(plainBook(btc).bids));
    expect(sorted(mirror.book.asks)).toEqual(sorted(plainBook(btc).asks));
  });

  it('rebuilds the live book from the stream under running flow', async () => {
    sandbox.exchange.setFlowRate(200);
    const hub = await connect();
    const mirrors = ['btc_usdt', 'eth_usdt'].map((instrument) =>
      new BookMirror().follow(hub.stream<BookItem>('Book', instrument)),
    );
    await waitFor(() => mirrors.every((mirror) => mirror.items.length > 40), 'forty items per stream');
    sandbox.exchange.setFlowRate(0);

    for (const mirror of mirrors) {
      const market = sandbox.exchange.market(mirror.items[0].instrument) as MarketSimulator;
      await waitFor(() => mirror.version === market.version, `${market.instrument} to catch up`);
      const versions = mirror.items.map((item) => item.version);
      expect(versions).toEqual(Array.from({ length: versions.length }, (_, i) => versions[0] + i));
      expect(mirror.snapshots).toHaveLength(1);
      expect(sorted(mirror.book.bids)).toEqual(sorted(plainBook(market).bids));
      expect(sorted(mirror.book.asks)).toEqual(sorted(plainBook(market).asks));
    }
  });

  it('writes prices and amounts as JSON numbers with their exact text, even at 18 decimals', async () => {
    const pepe = sandbox.exchange.market('pepe_eth') as MarketSimulator;
    raw = await RawHubClient.connect(`${sandbox.wsUrl}/marketdata/info`);
    raw.send(`{"type":4,"invocationId":"0","target":"Book","arguments":["pepe_eth"],"streamIds":[]}${RS}`);
    const frame = await raw.waitForMessage((message) => message.startsWith('{"type":2'), 'the snapshot');

    const message = parse(frame) as { item: { bids: { amount: unknown; price: unknown }[] } };
    const level = [...pepe.engine.levels(Side.Buy)].reverse()[0];
    const [first] = message.item.bids;
    expect(isLosslessNumber(first.price)).toBe(true);
    expect((first.price as LosslessNumber).value).toBe(formatUnits(level.price, 18));
    expect((first.amount as LosslessNumber).value).toBe(formatUnits(level.amount, 18));
    expect(frame).not.toMatch(/"(price|amount|askTotalAmount|bidTotalAmount)":"/);
  });

  it('stops a disposed stream on the server and answers the cancel with a completion', async () => {
    const hub = await connect();
    const markets = sandbox.app.get(MarketDataHub);
    const before = markets.streamCount('btc_usdt');
    const mirror = new BookMirror().follow(hub.stream<BookItem>('Book', 'btc_usdt'));
    await waitFor(() => mirror.items.length === 1, 'the snapshot');
    expect(markets.streamCount('btc_usdt')).toBe(before + 1);
    mirror.dispose();
    await waitFor(() => markets.streamCount('btc_usdt') === before, 'the server to stop the stream');

    raw = await RawHubClient.connect(`${sandbox.wsUrl}/marketdata/info`);
    raw.send(`{"type":4,"invocationId":"7","target":"Book","arguments":["btc_usdt"]}${RS}`);
    await raw.waitForMessage((text) => text.startsWith('{"type":2,"invocationId":"7"'), 'the snapshot');
    raw.send(`{"type":5,"invocationId":"7"}${RS}`);
    await raw.waitForMessage((text) => text === '{"type":3,"invocationId":"7"}', 'the completion');
    sandbox.exchange.stepMarket(btc, 5);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(raw.messages[raw.messages.length - 1]).toBe('{"type":3,"invocationId":"7"}');
  });

  it('completes with an error naming an unknown instrument', async () => {
    const hub = await connect();
    const mirror = new BookMirror().follow(hub.stream<BookItem>('Book', 'nope_usdt'));
    await waitFor(() => mirror.error !== undefined, 'the error');
    expect(mirror.error?.message).toContain("'nope_usdt'");
    expect(mirror.items).toHaveLength(0);
    expect(hub.state).toBe(HubConnectionState.Connected);
  });

  it('answers an unknown method, a streaming method invoked without streaming and bad arguments', async () => {
    const hub = await connect();
    await expect(hub.invoke('Trades', 'btc_usdt')).rejects.toThrow("Unknown hub method 'Trades'");
    const unknownStream = new BookMirror().follow(hub.stream<BookItem>('Chart', 'x'));
    await waitFor(() => unknownStream.error !== undefined, 'the error');
    expect(unknownStream.error?.message).toBe("Unknown hub method 'Chart'");
    await expect(hub.invoke('Book', 'btc_usdt')).rejects.toThrow(
      "The client attempted to invoke the streaming 'Book' method with a non-streaming invocation.",
    );
    const noArgument = new BookMirror().follow(hub.stream<BookItem>('Book'));
    await waitFor(() => noArgument.error !== undefined, 'the error');
    expect(noArgument.error?.message).toContain('Invocation provides 0 argument(s) but target expects 1.');
    expect(hub.state).toBe(HubConnectionState.Connected);

    // The method name is case-insensitive, as on the exchange's ASP.NET Core hub.
    const lowerCase = new BookMirror().follow(hub.stream<BookItem>('book', 'btc_usdt'));
    await waitFor(() => lowerCase.items.length === 1, 'the snapshot');
  });

  it('serves several messages sent in one frame, the handshake included', async () => {
    raw = await RawHubClient.open(`${sandbox.wsUrl}/marketdata/info`);
    raw.send(
      `{"protocol":"json","version":1}${RS}{"type":6}${RS}` +
        `{"type":4,"invocationId":"0","target":"Book","arguments":["btc_usdt"]}${RS}` +
        `{"type":4,"invocationId":"1","target":"Book","arguments":["eth_btc"]}${RS}`,
    );
    await raw.waitForMessage(
      (text) => text.startsWith('{"type":2,"invocationId":"1"'),
      'the second snapshot',
    );
    expect(raw.messages[0]).toBe('{}');
    expect(raw.frames.every((frame) => frame.endsWith(RS))).toBe(true);
    const items = raw.parsed().slice(1) as { invocationId: string; item: BookItem }[];
    expect(items.map(({ invocationId, item }) => [invocationId, item.instrument, item.snapshot])).toEqual([
      ['0', 'btc_usdt', true],
      ['1', 'eth_btc', true],
    ]);
  });

  it('refuses a second stream with an invocation id that is still streaming', async () => {
    raw = await RawHubClient.connect(`${sandbox.wsUrl}/marketdata/info`);
    raw.send(`{"type":4,"invocationId":"3","target":"Book","arguments":["btc_usdt"]}${RS}`);
    raw.send(`{"type":4,"invocationId":"3","target":"Book","arguments":["eth_btc"]}${RS}`);
    const completion = await raw.waitForMessage((text) => text.startsWith('{"type":3'), 'the refusal');
    expect(JSON.parse(completion)).toEqual({
      type: 3,
      invocationId: '3',
      error: "Invocation ID '3' is already in use.",
    });
  });
});
