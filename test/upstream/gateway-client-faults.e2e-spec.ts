import { Trade } from '../../src/market/trade';
import { MarketSimulator, RunningSandbox, Side } from 'sandbox-exchange';
import { formatUnits } from '../../src/market/fixed-point';
import { GatewayClient, GatewayConnectionState } from '../../src/upstream/gateway/gateway-client';
import { GatewayClientOptions } from '../../src/upstream/gateway/gateway-client-options';
import { level2Subscription, tradesSubscription } from '../../src/upstream/gateway/market-data-subscriptions';
import { BookReplica } from '../../src/upstream/gateway/testing/book-replica';
import { CapturingLogger } from '../../src/upstream/gateway/testing/capturing-logger';
import { waitUntil } from '../../src/upstream/gateway/testing/wait-until';
import { startTestSandbox } from '../support/start-test-sandbox';

const BTC = { instrumentId: 1, instrument: 'btc_usdt' };

function truthBook(market: MarketSimulator): Map<string, string> {
  const book = new Map<string, string>();
  for (const [side, name] of [
    [Side.Buy, 'bid'],
    [Side.Sell, 'ask'],
  ] as const) {
    for (const level of market.engine.levels(side)) {
      book.set(
        `${name}@${formatUnits(level.price, market.spec.priceScale)}`,
        formatUnits(level.amount, market.spec.amountScale),
      );
    }
  }
  return book;
}

function truthTradeIds(market: MarketSimulator): string[] {
  return market.tradeLog.between(-Infinity, Infinity).map((trade) => String(trade.id));
}

/** What one client saw of the trades: each subscribe's snapshot followed by its events. */
class TradeTape {
  readonly streams: Trade[][] = [];

  onSnapshot = (trades: Trade[]): void => {
    this.streams.push([...trades]);
  };

  onTrades = (trades: Trade[]): void => {
    this.streams[this.streams.length - 1].push(...trades);
  };

  /** Every trade seen, once per id, oldest first. */
  merged(): string[] {
    const ids = new Set<string>();
    for (const stream of this.streams) for (const trade of stream) ids.add(trade.id);
    return [...ids].sort((a, b) => Number(a) - Number(b));
  }

  get lastId(): string | undefined {
    const stream = this.streams[this.streams.length - 1];
    return stream?.[stream.length - 1]?.id;
  }
}

describe('gateway client: sandbox faults', () => {
  let sandbox: RunningSandbox;
  let btc: MarketSimulator;
  const logger = new CapturingLogger();
  const clients: GatewayClient[] = [];

  async function running(options: Partial<GatewayClientOptions> = {}): Promise<GatewayClient> {
    const client = new GatewayClient({
      wsUrl: sandbox.wsUrl,
      authUrl: sandbox.authUrl,
      credentials: { email: 'demo@example.com', password: 'demo' },
      pingIntervalMs: 100,
      pongTimeoutMs: 300,
      requestTimeoutMs: 1_000,
      reconnect: { initialDelayMs: 40, maxDelayMs: 200 },
      logger,
      ...options,
    });
    clients.push(client);
    client.start();
    await client.whenConnected(5_000);
    return client;
  }

  /** A Level 2 replica of BTC kept by `client`. */
  function replica(client: GatewayClient): BookReplica {
    const book = new BookReplica();
    client.subscribe(
      level2Subscription({ instrument: BTC, depth: 100_000 }, { onBook: (m) => book.apply(m) }),
    );
    return book;
  }

  async function flow(operations: number): Promise<void> {
    const start = btc.version;
    sandbox.exchange.setFlowRate(400);
    await waitUntil(() => btc.version >= start + operations, 10_000, 'market flow');
    sandbox.exchange.setFlowRate(0);
  }

  async function expectBookInSync(book: BookReplica): Promise<void> {
    await waitUntil(() => book.version === btc.version, 5_000, 'book at the market version');
    expect(book.levels).toEqual(truthBook(btc));
  }

  beforeAll(async () => {
    sandbox = await startTestSandbox({ SANDBOX_FLOW_RATE: '0' });
    btc = sandbox.exchange.market('btc_usdt')!;
  });

  afterEach(async () => {
    for (const fault of sandbox.exchange.faults.list()) {
      if (fault.enabled) sandbox.exchange.faults.set(fault.name, false);
    }
    sandbox.exchange.setFlowRate(0);
    await Promise.all(clients.splice(0).map((client) => client.stop()));
  });

  afterAll(async () => {
    await sandbox?.close();
    const text = logger.lines.join('\n');
    expect(text).not.toContain('demo');
    expect(text).not.toMatch(/[A-Za-z0-9_-]{43}/);
  });

  it('drop-connections: reconnects, authenticates and subscribes again; book and trades are whole', async () => {
    const client = await running();
    const book = replica(client);
    const tape = new TradeTape();
    client.subscribe(tradesSubscription({ instrument: BTC, includeLastCount: 500 }, tape));
    await flow(50);
    await expectBookInSync(book);

    sandbox.exchange.faults.set('drop-connections', true);
    await waitUntil(() => client.state !== 'connected', 10_000, 'connection lost');
    // The market moves while the client cannot connect (the gateway refuses upgrades with 503).
    await flow(100);
    await waitUntil(() => client.counters.reconnects === 0 && logger.lines.some((l) => l.includes('503')));
    sandbox.exchange.faults.set('drop-connections', false);

    await client.whenConnected(5_000);
    expect(client.authenticated).toBe(true);
    expect(client.counters).toMatchObject({ reconnects: 1, logins: 1 });
    await waitUntil(() => book.snapshots === 2 && tape.streams.length === 2, 5_000, 'subscribed again');
    await expectBookInSync(book);

    await flow(100);
    await expectBookInSync(book);
    const last = String(btc.tradeLog.last()!.id);
    await waitUntil(() => tape.lastId === last, 5_000, 'last trade');
    // Each subscription's stream holds every trade once; together they hold the whole tape.
    for (const stream of tape.streams) expect(new Set(stream.map((t) => t.id)).size).toBe(stream.length);
    expect(tape.merged()).toEqual(truthTradeIds(btc).slice(-tape.merged().length));
    expect(tape.merged().length).toBeGreaterThanOrEqual(tape.streams[0].length);
  });

  it('expire-sessions: logs in again by itself and resumes', async () => {
    const client = await running();
    const book = replica(client);
    await waitUntil(() => book.snapshots === 1);
    expect(client.counters.logins).toBe(1);

    sandbox.exchange.faults.set('expire-sessions', true);
    await waitUntil(() => client.counters.logins === 2 && client.state === 'connected', 5_000, 'new login');
    expect(client.authenticated).toBe(true);
    expect(client.counters.reconnects).toBe(1);
    expect(await client.request('GetUserAccounts', { OMSId: 1 })).toEqual(['1']);
    await waitUntil(() => book.snapshots === 2, 5_000, 'subscribed again');
    await flow(30);
    await expectBookInSync(book);
  });

  it('silence: notices the missing Pong answers, reconnects, and recovers when the gateway speaks again', async () => {
    const client = await running();
    const book = replica(client);
    await waitUntil(() => book.snapshots === 1);
    const states: GatewayConnectionState[] = [];
    client.onStateChange((state) => states.push(state));

    sandbox.exchange.faults.set('silence', true);
    await waitUntil(() => client.counters.pongTimeouts >= 1, 10_000, 'pong timeout');
    // The timeout cuts the socket; the state changes once its close comes through.
    await waitUntil(() => states.length > 0, 10_000, 'a state change');
    expect(states[0]).toBe('reconnecting');
    // New sockets open, but WebAuthenticateUser goes unanswered: the client keeps trying.
    await waitUntil(() => logger.lines.some((l) => l.includes('WebAuthenticateUser: no answer')), 10_000);
    expect(client.state).not.toBe('connected');
    await flow(40);
    sandbox.exchange.faults.set('silence', false);

    await client.whenConnected(5_000);
    expect(client.counters.reconnects).toBe(1);
    await waitUntil(() => book.snapshots === 2, 5_000, 'subscribed again');
    await expectBookInSync(book);
    await flow(30);
    await expectBookInSync(book);
  });

  it('silence during authentication: the unanswered login call costs the Pong timeout, not the request timeout', async () => {
    const client = await running({ requestTimeoutMs: 30_000 });
    sandbox.exchange.faults.set('silence', true);
    await waitUntil(() => client.counters.pongTimeouts >= 1, 10_000, 'pong timeout');
    // The next connection opens, and its WebAuthenticateUser is ignored while the gateway is silent.
    await waitUntil(() => client.state === 'authenticating', 10_000, 'authenticating');
    sandbox.exchange.faults.set('silence', false);
    // Pong timeouts of 300 ms, against a request timeout of 30 s: a login that waited the request
    // out would not be connected before whenConnected gives up, at half of it.
    await client.whenConnected(15_000);
  });

  it('malformed-frame: skips and counts the frames, the connection stays up', async () => {
    const client = await running();
    const book = replica(client);
    await waitUntil(() => book.snapshots === 1);
    const states: GatewayConnectionState[] = [];
    client.onStateChange((state) => states.push(state));
    const warningsBefore = logger.lines.filter((line) => line.includes('unreadable frame')).length;

    sandbox.exchange.faults.set('malformed-frame', true, { intervalMs: 20 });
    await flow(60);
    await waitUntil(() => client.counters.malformedFrames >= 10, 10_000, 'ten malformed frames');
    sandbox.exchange.faults.set('malformed-frame', false);

    expect(states).toEqual([]);
    expect(client.counters.reconnects).toBe(0);
    expect(await client.request('Ping')).toEqual({ msg: 'PONG' });
    await expectBookInSync(book);
    expect(book.snapshots).toBe(1);
    // Counted every time, logged once in a while.
    const warnings = logger.lines.filter((line) => line.includes('unreadable frame')).length - warningsBefore;
    expect(warnings).toBe(1);
  });
});
