import { Trade } from '../../src/market/trade';
import { MarketSimulator, RunningSandbox, Side } from 'sandbox-exchange';
import { formatUnits } from '../../src/market/fixed-point';
import { GatewayClient, GatewayConnectionState } from '../../src/upstream/gateway/gateway-client';
import { GatewayClientOptions } from '../../src/upstream/gateway/gateway-client-options';
import { GatewayCallError } from '../../src/upstream/gateway/gateway-errors';
import { GatewayMarketData } from '../../src/upstream/gateway/gateway-market-data';
import {
  level1Subscription,
  level2Subscription,
  tradesSubscription,
} from '../../src/upstream/gateway/market-data-subscriptions';
import { Level1 } from '../../src/upstream/gateway/level1';
import { BookReplica } from '../../src/upstream/gateway/testing/book-replica';
import { CapturingLogger } from '../../src/upstream/gateway/testing/capturing-logger';
import { waitUntil } from '../../src/upstream/gateway/testing/wait-until';
import { startTestSandbox } from '../support/start-test-sandbox';

const CREDENTIALS = { email: 'demo@example.com', password: 'demo' };
const BTC = { instrumentId: 1, instrument: 'btc_usdt' };

/** The market's book keyed as BookReplica keys it. */
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

/** Every retained trade of the market, oldest first, as the domain's Trade. */
function truthTrades(market: MarketSimulator): Trade[] {
  const { priceScale, amountScale, instrument } = market.spec;
  return market.tradeLog.between(-Infinity, Infinity).map((trade) => ({
    id: String(trade.id),
    instrument,
    price: formatUnits(trade.price, priceScale),
    amount: formatUnits(trade.amount, amountScale),
    side: trade.takerSide === Side.Buy ? 'buy' : 'sell',
    time: trade.time,
  }));
}

describe('gateway client against the sandbox', () => {
  let sandbox: RunningSandbox;
  let btc: MarketSimulator;
  const logger = new CapturingLogger();
  const clients: GatewayClient[] = [];

  function client(options: Partial<GatewayClientOptions> = {}): GatewayClient {
    const made = new GatewayClient({
      wsUrl: sandbox.wsUrl,
      authUrl: sandbox.authUrl,
      credentials: CREDENTIALS,
      pingIntervalMs: 200,
      pongTimeoutMs: 1_000,
      requestTimeoutMs: 3_000,
      reconnect: { initialDelayMs: 50, maxDelayMs: 400 },
      logger,
      ...options,
    });
    clients.push(made);
    return made;
  }

  async function running(options: Partial<GatewayClientOptions> = {}): Promise<GatewayClient> {
    const made = client(options);
    made.start();
    await made.whenConnected(5_000);
    return made;
  }

  /** Runs the flow until the market moved by `operations` versions, then pauses it. */
  async function flow(market: MarketSimulator, operations: number): Promise<void> {
    const start = market.version;
    sandbox.exchange.setFlowRate(400);
    await waitUntil(() => market.version >= start + operations, 10_000, 'market flow');
    sandbox.exchange.setFlowRate(0);
  }

  beforeAll(async () => {
    sandbox = await startTestSandbox({ SANDBOX_FLOW_RATE: '0' });
    btc = sandbox.exchange.market('btc_usdt')!;
  });

  afterEach(async () => {
    sandbox.exchange.setFlowRate(0);
    await Promise.all(clients.splice(0).map((made) => made.stop()));
  });

  afterAll(async () => {
    await sandbox?.close();
    // Nothing the client logged (logins, reconnects, failures) reveals the login or its tokens.
    const text = logger.lines.join('\n');
    expect(logger.lines.length).toBeGreaterThan(0);
    expect(text).not.toContain('demo');
    expect(text).not.toContain('wrong-secret');
    expect(text).not.toMatch(/[A-Za-z0-9_-]{43}/);
  });

  it('logs in, connects with the session and authenticates with the token', async () => {
    const made = client();
    const states: GatewayConnectionState[] = [];
    made.onStateChange((state) => states.push(state));
    expect(made.state).toBe('disconnected');
    made.start();
    await made.whenConnected(5_000);
    expect(states).toEqual(['connecting', 'authenticating', 'connected']);
    expect(made.authenticated).toBe(true);
    expect(made.counters).toMatchObject({ logins: 1, reconnects: 0, loginFailures: 0 });
    // Calls that need a user work.
    expect(await made.request('GetUserAccounts', { OMSId: 1 })).toEqual(['1']);
    await made.stop();
    expect(made.state).toBe('disconnected');
    expect(made.authenticated).toBe(false);
  });

  it("logs in at the exchange documentation's path too", async () => {
    const made = await running({ loginPath: '/api/v1/b2trade/auth' });
    expect(made.authenticated).toBe(true);
  });

  it('makes public calls without credentials; private ones are refused with 20', async () => {
    const made = await running({ credentials: undefined, authUrl: undefined });
    expect(made.authenticated).toBe(false);
    expect(made.counters.logins).toBe(0);
    const data = new GatewayMarketData(made);
    expect((await data.getInstruments()).length).toBe(sandbox.exchange.all().length);
    const refused = made.request('SubscribeTrades', { OMSId: 1, InstrumentId: 1 });
    await expect(refused).rejects.toBeInstanceOf(GatewayCallError);
    await expect(refused).rejects.toMatchObject({ code: 20 });
    await expect(made.request('NoSuchFunction')).rejects.toThrow('NoSuchFunction failed: Endpoint Not Found');
  });

  it('queues a call made before the connection is up, and refuses calls of a stopped client', async () => {
    const made = client({ credentials: undefined, authUrl: undefined });
    await expect(made.request('Ping')).rejects.toThrow('not running');
    made.start();
    expect(await made.request('Ping')).toEqual({ msg: 'PONG' });
  });

  it('lists instruments and products as the catalogue needs them', async () => {
    const data = new GatewayMarketData(await running());
    const instruments = await data.getInstruments();
    expect(instruments[0]).toEqual({
      instrumentId: 1,
      symbol: 'BTCUSDT',
      baseSymbol: 'BTC',
      quoteSymbol: 'USDT',
      sessionStatus: 'Running',
    });
    expect(instruments.map((instrument) => instrument.instrumentId)).toEqual(
      sandbox.exchange.all().map((market) => market.spec.instrumentId),
    );
    expect(Object.fromEntries(instruments.map((i) => [i.symbol, i.sessionStatus]))).toMatchObject({
      LTCBTC: 'Stopped',
      XRPUSDT: 'Paused',
    });
    const products = await data.getProducts();
    expect(products.find((product) => product.symbol === 'PEPE')).toMatchObject({ decimalPlaces: 18 });
    const ids = new Set(products.map((product) => product.symbol));
    for (const instrument of instruments) expect(ids.has(instrument.baseSymbol)).toBe(true);
  });

  it('rebuilds the book from the Level 2 snapshot and deltas, equal to the market at the same version', async () => {
    const made = await running();
    const book = new BookReplica();
    made.subscribe(level2Subscription({ instrument: BTC, depth: 100_000 }, { onBook: (m) => book.apply(m) }));
    await waitUntil(() => book.snapshots === 1, 5_000, 'snapshot');
    expect(book.version).toBe(btc.version);
    expect(book.levels).toEqual(truthBook(btc));

    await flow(btc, 150);
    await waitUntil(() => book.version === btc.version, 5_000, 'book at the market version');
    expect(book.deltas).toBeGreaterThanOrEqual(150);
    expect(book.levels).toEqual(truthBook(btc));
    expect(book.snapshots).toBe(1);
  });

  it('gives a fresh snapshot on restart() of a Level 2 subscription', async () => {
    const made = await running();
    const book = new BookReplica();
    const subscription = made.subscribe(
      level2Subscription({ instrument: BTC, depth: 100_000 }, { onBook: (m) => book.apply(m) }),
    );
    await waitUntil(() => subscription.active, 5_000, 'active subscription');
    await flow(btc, 20);
    await waitUntil(() => book.version === btc.version);
    await subscription.restart();
    expect(book.snapshots).toBe(2);
    expect(subscription.active).toBe(true);
    expect(book.version).toBe(btc.version);
    expect(book.levels).toEqual(truthBook(btc));
    await flow(btc, 20);
    await waitUntil(() => book.version === btc.version);
    expect(book.levels).toEqual(truthBook(btc));

    // Closed: unsubscribed, nothing more arrives.
    await subscription.close();
    const deltas = book.deltas;
    await flow(btc, 20);
    expect(await made.request('Ping')).toEqual({ msg: 'PONG' });
    expect(book.deltas).toBe(deltas);
  });

  it('receives the trades snapshot and OrderTradeEvents: the market tape, nothing lost or doubled', async () => {
    const made = await running();
    const received: Trade[] = [];
    let snapshot: Trade[] = [];
    const spec = tradesSubscription(
      { instrument: BTC, includeLastCount: 20 },
      { onSnapshot: (trades) => (snapshot = trades), onTrades: (trades) => received.push(...trades) },
    );
    const eventNames = new Set<string>();
    made.subscribe({
      ...spec,
      onEvent: (name, payload, receivedAt) => {
        eventNames.add(name);
        spec.onEvent(name, payload, receivedAt);
      },
    });
    await waitUntil(() => snapshot.length > 0, 5_000, 'trades snapshot');
    expect(snapshot).toEqual(truthTrades(btc).slice(-20));
    const tradesBefore = btc.tradeLog.size;
    await flow(btc, 300);
    expect(btc.tradeLog.size).toBeGreaterThan(tradesBefore);
    const last = String(btc.tradeLog.last()!.id);
    await waitUntil(() => received[received.length - 1]?.id === last, 5_000, 'last trade');
    const all = [...snapshot, ...received];
    expect(new Set(all.map((trade) => trade.id)).size).toBe(all.length);
    expect(all).toEqual(truthTrades(btc).slice(-all.length));
    expect(received.length).toBe(btc.tradeLog.size - tradesBefore);
    expect([...eventNames]).toEqual(['OrderTradeEvent']);
  });

  it('follows Level 1: the reply, then updates that reach the market best prices and last trade', async () => {
    const made = await running();
    const records: Level1[] = [];
    made.subscribe(level1Subscription({ instrument: BTC }, { onLevel1: (record) => records.push(record) }));
    const best = (side: Side) => formatUnits(btc.bestPrice(side)!, btc.spec.priceScale);
    const matchesMarket = (record: Level1 | undefined) =>
      record?.bestBid === best(Side.Buy) &&
      record.bestOffer === best(Side.Sell) &&
      record.lastTradedPrice === formatUnits(btc.tradeLog.last()!.price, btc.spec.priceScale);
    await waitUntil(() => records.length === 1, 5_000, 'Level 1 reply');
    expect(matchesMarket(records[0])).toBe(true);
    expect(records[0]).toMatchObject({ instrument: 'btc_usdt', instrumentId: 1 });
    await flow(btc, 100);
    await waitUntil(() => records.length > 1 && matchesMarket(records[records.length - 1]), 5_000, 'update');
    const last = records[records.length - 1];
    expect(last.rolling24hTradeCount).toBe(btc.tradeLog.rolling24h(last.time).count);
  });

  it('pings periodically and gets answers', async () => {
    const made = await running({ pingIntervalMs: 50 });
    await waitUntil(() => made.counters.pongs >= 5, 10_000, 'five pongs');
    expect(made.counters.pings).toBeGreaterThanOrEqual(5);
    expect(made.counters.pongTimeouts).toBe(0);
    expect(made.state).toBe('connected');
  });

  it('pages GetTradesHistory into the market tape, one trade per TradeId with the taker side', async () => {
    const made = await running();
    const data = new GatewayMarketData(made);
    const names = new Map([[1, 'btc_usdt']]);
    const trades = await data.getTradesHistory({ names, instrumentId: 1, pageSize: 25 });
    const truth = truthTrades(btc);
    expect(truth.length).toBeGreaterThan(50);
    expect(trades).toEqual([...truth].reverse());
  });

  it('reads a Level 2 snapshot without subscribing', async () => {
    const data = new GatewayMarketData(await running());
    const snapshot = await data.getL2Snapshot(BTC, 100_000);
    expect(snapshot).toMatchObject({ instrument: 'btc_usdt', snapshot: true, version: btc.version });
    const book = new BookReplica();
    book.apply(snapshot);
    expect(book.levels).toEqual(truthBook(btc));
  });

  it('keeps trying to log in with wrong credentials, never revealing them', async () => {
    const made = client({ credentials: { email: 'demo@example.com', password: 'wrong-secret' } });
    made.start();
    await waitUntil(() => made.counters.loginFailures >= 2, 5_000, 'two login failures');
    expect(made.state).toBe('reconnecting');
    await expect(made.request('Ping', {}, { timeoutMs: 100 })).rejects.toThrow('not connected');
    expect(logger.lines.some((line) => line.includes('login failed with HTTP 401'))).toBe(true);
  });

  it('stop() leaves no socket or timer behind', async () => {
    const resources = () => {
      const info = process.getActiveResourcesInfo();
      return {
        sockets: info.filter((name) => name === 'TCPSocketWrap').length,
        timers: info.filter((name) => name === 'Timeout').length,
      };
    };
    const before = resources();
    const made = await running({ pingIntervalMs: 20 });
    made.subscribe(level2Subscription({ instrument: BTC, depth: 10 }, { onBook: () => undefined }));
    await waitUntil(() => made.counters.pongs >= 2);
    expect(resources().sockets).toBeGreaterThan(before.sockets);
    await made.stop();
    await waitUntil(
      () => {
        const after = resources();
        return after.sockets <= before.sockets && after.timers <= before.timers;
      },
      10_000,
      'resources released',
    );
  });
});
