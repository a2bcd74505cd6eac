import { Side } from '../src/engine/side';
import { formatUnits } from '../src/engine/units';
import { GatewayTestClient } from './support/gateway-test-client';
import { MarketSimulator } from '../src/simulation/market-simulator';
import { RunningSandbox } from '../src/start-sandbox';
import { startTestSandbox } from './support/start-test-sandbox';

type Row = string[];

/** The market's book as `side@price -> amount`, as the gateway writes prices and amounts. */
function truth(market: MarketSimulator): Map<string, string> {
  const book = new Map<string, string>();
  for (const side of [Side.Buy, Side.Sell]) {
    for (const level of market.engine.levels(side)) {
      book.set(
        `${side}@${formatUnits(level.price, market.spec.priceScale)}`,
        formatUnits(level.amount, market.spec.amountScale),
      );
    }
  }
  return book;
}

/** Applies level rows in array order by price and side: types 0 and 1 set the level, 2 deletes it. */
function apply(book: Map<string, string>, rows: Row[]): void {
  for (const row of rows) {
    const key = `${row[9]}@${row[6]}`;
    if (row[3] === '2') book.delete(key);
    else book.set(key, row[8]);
  }
}

describe('sandbox gateway: public market data', () => {
  let sandbox: RunningSandbox;
  let client: GatewayTestClient;
  let btc: MarketSimulator;

  beforeAll(async () => {
    sandbox = await startTestSandbox({ SANDBOX_FLOW_RATE: '0' });
    btc = sandbox.exchange.market('btc_usdt')!;
  });

  afterAll(async () => {
    await sandbox?.close();
  });

  beforeEach(async () => {
    sandbox.exchange.setFlowRate(0);
    client = await GatewayTestClient.connect(`${sandbox.wsUrl}/WSGateway/`);
  });

  afterEach(async () => {
    await client?.close();
  });

  it('answers Ping with PONG, echoing i and n, with or without the trailing slash', async () => {
    const reply = await client.call('Ping');
    expect(reply).toMatchObject({ m: 1, i: 2, n: 'Ping', payload: { msg: 'PONG' } });
    expect(reply.raw).toBe('{"m":1,"i":2,"n":"Ping","o":"{\\"msg\\":\\"PONG\\"}"}');
    const bare = await GatewayTestClient.connect(`${sandbox.wsUrl}/WSGateway`);
    try {
      expect((await bare.call('Ping', {})).payload).toEqual({ msg: 'PONG' });
    } finally {
      await bare.close();
    }
  });

  it('lists instruments and products', async () => {
    const instruments = (await client.call('GetInstruments', { OMSId: 1 })).payload as Record<
      string,
      unknown
    >[];
    expect(instruments).toHaveLength(sandbox.exchange.all().length);
    expect(instruments[0]).toMatchObject({
      OMSId: '1',
      InstrumentId: '1',
      Symbol: 'BTCUSDT',
      Product1Symbol: 'BTC',
      Product2Symbol: 'USDT',
      InstrumentType: 'Standard',
      SessionStatus: 'Running',
      QuantityIncrement: '8',
    });
    const statuses = Object.fromEntries(instruments.map((i) => [i.Symbol, i.SessionStatus]));
    expect(statuses).toMatchObject({ LTCBTC: 'Stopped', XRPUSDT: 'Paused', DOGEUSDT: 'Running' });
    const products = (await client.call('GetProducts', { OMSId: 1 })).payload as Record<string, unknown>[];
    const ids = new Map(products.map((product) => [product.Product, product.ProductId]));
    for (const instrument of instruments) {
      expect(ids.get(instrument.Product1Symbol)).toBe(instrument.Product1);
      expect(ids.get(instrument.Product2Symbol)).toBe(instrument.Product2);
    }
    expect(products.find((product) => product.Product === 'PEPE')).toMatchObject({
      DecimalPlaces: '18',
      TickSize: '0.000000000000000001',
      ProductType: 'CryptoCurrency',
      NoFees: false,
    });
  });

  it('sends the book as the SubscribeLevel2 reply and deltas that rebuild it exactly', async () => {
    const reply = await client.call('SubscribeLevel2', { OMSId: 1, InstrumentId: 1, Depth: 100_000 });
    expect(reply).toMatchObject({ m: 1, n: 'SubscribeLevel2' });
    const snapshot = reply.payload as Row[];
    const version = String(btc.version);
    expect(snapshot.every((row) => row[0] === version && row[3] === '0' && row[7] === '1')).toBe(true);
    const bids = snapshot.filter((row) => row[9] === '0').map((row) => Number(row[6]));
    const asks = snapshot.filter((row) => row[9] === '1').map((row) => Number(row[6]));
    expect(bids).toEqual([...bids].sort((a, b) => b - a));
    expect(asks).toEqual([...asks].sort((a, b) => a - b));
    expect(snapshot.findIndex((row) => row[9] === '1')).toBe(bids.length);

    const book = new Map<string, string>();
    apply(book, snapshot);
    expect(book).toEqual(truth(btc));

    sandbox.exchange.setFlowRate(300);
    await client.until(() => client.events('Level2UpdateEvent').length >= 60, 10_000);
    sandbox.exchange.setFlowRate(0);
    const finalVersion = () => String(btc.version);
    await client.until(() => {
      const events = client.events('Level2UpdateEvent').filter((e) => (e.payload as Row[])[0][7] === '1');
      return (events[events.length - 1]?.payload as Row[] | undefined)?.[0][0] === finalVersion();
    });
    const events = client.events('Level2UpdateEvent');
    const seen = new Set<string>();
    for (const event of events) {
      const rows = event.payload as Row[];
      if (rows[0][7] !== '1') continue;
      expect(new Set(rows.map((row) => row[0])).size).toBe(1);
      for (const row of rows) seen.add(row[3]);
      apply(book, rows);
    }
    expect([...seen].sort()).toEqual(['0', '1', '2']);
    expect(book).toEqual(truth(btc));
    // Event numbers are the socket's own counter, not the subscribing request's.
    expect(events.map((event) => event.i)).toEqual(events.map((_, index) => index + 1));
    // Some updates arrive as a delete followed by a new row at the same price.
    const pairs = events
      .flatMap((event) => (event.payload as Row[]).map((row, index, rows) => [row, rows[index + 1]] as const))
      .filter(
        ([row, next]) =>
          next && row[3] === '2' && next[3] === '0' && row[6] === next[6] && row[9] === next[9],
      );
    expect(pairs.length).toBeGreaterThan(0);
  });

  it('limits the snapshot to Depth levels per side but sends deltas for every level', async () => {
    const reply = await client.call('SubscribeLevel2', { OMSId: 1, Symbol: 'BTCUSDT', Depth: 3 });
    const rows = reply.payload as Row[];
    expect(rows.map((row) => row[9])).toEqual(['0', '0', '0', '1', '1', '1']);
    const snapshot = await client.call('GetL2Snapshot', { OMSId: 1, InstrumentId: 1, Depth: 3 });
    expect(snapshot.payload).toEqual(rows);
    const bestBid = Number(rows[0][6]);
    const bestAsk = Number(rows[3][6]);
    const outside = (row: Row) =>
      row[9] === '0' ? Number(row[6]) < Number(rows[2][6]) : Number(row[6]) > Number(rows[5][6]);
    sandbox.exchange.setFlowRate(300);
    await client.until(
      () => client.events('Level2UpdateEvent').some((event) => (event.payload as Row[]).some(outside)),
      10_000,
    );
    expect(bestBid).toBeLessThan(bestAsk);
  });

  it('gives GetL2Snapshot the same rows as a subscription, without subscribing', async () => {
    const snapshot = await client.call('GetL2Snapshot', { OMSId: 1, InstrumentId: 1, Depth: 5 });
    const subscribed = await client.call('SubscribeLevel2', { OMSId: 1, InstrumentId: 1, Depth: 5 });
    expect(subscribed.payload).toEqual(snapshot.payload);
    expect((await client.call('UnsubscribeLevel2', { OMSId: 1, InstrumentId: 1 })).payload).toMatchObject({
      result: true,
      errorcode: '0',
    });
    const again = await client.call('GetL2Snapshot', { OMSId: 1, InstrumentId: 1, Depth: 5 });
    expect(again.payload).toEqual(snapshot.payload);
    expect((await client.call('UnsubscribeLevel2', { OMSId: 1, InstrumentId: 1 })).payload).toMatchObject({
      result: false,
      errorcode: '104',
    });
  });

  it('stops Level2UpdateEvents after UnsubscribeLevel2', async () => {
    await client.call('SubscribeLevel2', { OMSId: 1, InstrumentId: 1, Depth: 10 });
    sandbox.exchange.setFlowRate(200);
    await client.until(() => client.events('Level2UpdateEvent').length > 0);
    const reply = await client.call('UnsubscribeLevel2', { OMSId: 1, InstrumentId: 1 });
    expect(reply.payload).toEqual({ result: true, errormsg: null, errorcode: '0', detail: null });
    const count = client.events('Level2UpdateEvent').length;
    const before = btc.version;
    await client.until(() => btc.version > before + 10);
    expect((await client.call('Ping')).payload).toEqual({ msg: 'PONG' });
    expect(client.events('Level2UpdateEvent')).toHaveLength(count);
  });

  it('sends the Level 1 record and coalesced Level1UpdateEvents', async () => {
    const reply = await client.call('SubscribeLevel1', { OMSId: 1, InstrumentId: 1 });
    expect(Object.keys(reply.payload as object)).toEqual([
      'OMSId',
      'InstrumentId',
      'BestBid',
      'BestOffer',
      'LastTradedPx',
      'LastTradedQty',
      'LastTradeTime',
      'SessionOpen',
      'SessionHigh',
      'SessionLow',
      'SessionClose',
      'Volume',
      'CurrentDayVolume',
      'CurrentDayNumTrades',
      'CurrentDayPxChange',
      'Rolling24HrVolume',
      'Rolling24HrNumTrades',
      'Rolling24HrPxChange',
      'TimeStamp',
    ]);
    const best = (side: Side) => formatUnits(btc.bestPrice(side)!, btc.spec.priceScale);
    expect(reply.payload).toMatchObject({
      InstrumentId: '1',
      BestBid: best(Side.Buy),
      BestOffer: best(Side.Sell),
    });
    expect((await client.call('SubscribeLevel1', { OMSId: 1, InstrumentId: 1 })).payload).toMatchObject({
      errorcode: '909',
      errormsg: 'Already Subscribed.',
    });

    sandbox.exchange.setFlowRate(400);
    await client.until(() => client.events('Level1UpdateEvent').length >= 4, 10_000);
    sandbox.exchange.setFlowRate(0);
    const times = client
      .events('Level1UpdateEvent')
      .map((event) => Number((event.payload as { TimeStamp: string }).TimeStamp));
    for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBeGreaterThanOrEqual(95);
    await client.until(() => {
      const events = client.events('Level1UpdateEvent');
      const last = events[events.length - 1].payload as Record<string, string>;
      return last.BestBid === best(Side.Buy) && last.BestOffer === best(Side.Sell);
    });
    expect((await client.call('UnsubscribeLevel1', { OMSId: 1, InstrumentId: 1 })).payload).toMatchObject({
      result: true,
    });
  });

  it('answers subscription errors with the generic result: 100, 104, 909, 20', async () => {
    const missingDepth = await client.call('SubscribeLevel2', { OMSId: 1, InstrumentId: 1 });
    expect(missingDepth).toMatchObject({ m: 1, n: 'SubscribeLevel2' });
    expect(missingDepth.payload).toEqual({
      result: false,
      errormsg: 'Invalid Request',
      errorcode: '100',
      detail: 'Depth must be a positive integer',
    });
    expect(
      (await client.call('SubscribeLevel2', { OMSId: 1, InstrumentId: 424242, Depth: 5 })).payload,
    ).toMatchObject({
      errormsg: 'Resource Not Found',
      errorcode: '104',
    });
    expect((await client.call('SubscribeLevel1', { OMSId: 1, Symbol: 'NOPE' })).payload).toMatchObject({
      errorcode: '104',
    });
    expect((await client.call('SubscribeLevel2', { OMSId: 1, InstrumentId: 2, Depth: 5 })).payload).toEqual(
      expect.any(Array),
    );
    expect((await client.call('SubscribeLevel2', { OMSId: 1, InstrumentId: 2, Depth: 5 })).payload).toEqual({
      result: false,
      errormsg: 'Already Subscribed.',
      errorcode: '909',
      detail: null,
    });
    expect((await client.call('UnsubscribeLevel1', { OMSId: 1, InstrumentId: 2 })).payload).toMatchObject({
      errorcode: '104',
    });
    expect((await client.call('UnsubscribeTrades', { OMSId: 1, InstrumentId: 2 })).payload).toMatchObject({
      errorcode: '104',
    });
    expect((await client.call('SubscribeTrades', { OMSId: 1, InstrumentId: 1 })).payload).toMatchObject({
      result: false,
      errormsg: 'Not Authorized',
      errorcode: '20',
    });
    expect((await client.call('GetUserAccounts', { OMSId: 1 })).payload).toMatchObject({ errorcode: '20' });
    expect((await client.call('GetTradesHistory', { OMSId: 1 })).payload).toMatchObject({ errorcode: '20' });
  });

  it('answers bad frames with the protocol errors and keeps serving', async () => {
    const errors = () => client.frames.filter((frame) => frame.m === 5);
    client.send('this is not json');
    await client.until(() => errors().length === 1);
    expect(errors()[0]).toMatchObject({
      i: 0,
      n: '',
      payload: {
        result: false,
        errormsg: 'Invalid Request',
        errorcode: '100',
        detail: 'the frame is not JSON',
      },
    });
    client.send('[1,2,3]');
    client.send('{"m":0,"i":8,"o":"{}"}');
    await client.until(() => errors().length === 3);
    expect(errors()[1].payload).toMatchObject({ errorcode: '100', detail: 'the frame is not a JSON object' });
    expect(errors()[2]).toMatchObject({
      i: 8,
      payload: { errorcode: '100', detail: '"n" must name a function' },
    });

    client.send('{"m":0,"i":10,"n":"GetProducts","o":"{not json"}');
    const badPayload = await client.waitFor((frame) => frame.i === 10);
    expect(badPayload).toMatchObject({
      m: 1,
      n: 'GetProducts',
      payload: { result: false, errorcode: '100', detail: '"o" is not valid JSON' },
    });

    const unknown = await client.call('NoSuchFunction', {});
    expect(unknown.raw).toBe(`{"m":5,"i":${unknown.i},"n":"NoSuchFunction","o":"Endpoint Not Found"}`);

    const wrongType = await client.call('SubscribeLevel2', { OMSId: 1, InstrumentId: 'one', Depth: 5 });
    expect(wrongType.payload).toMatchObject({
      errorcode: '100',
      detail: 'InstrumentId must be a non-negative integer',
    });

    expect((await client.call('Ping')).payload).toEqual({ msg: 'PONG' });
    expect(client.isOpen).toBe(true);
  });

  it('closes a socket that sends a frame over 64 KiB with 1009, and serves others', async () => {
    const other = await GatewayTestClient.connect(`${sandbox.wsUrl}/WSGateway/`);
    try {
      client.send(JSON.stringify({ m: 0, i: 2, n: 'Ping', o: 'x'.repeat(65 * 1024) }));
      expect((await client.closed).code).toBe(1009);
      expect((await other.call('Ping')).payload).toEqual({ msg: 'PONG' });
      const fresh = await GatewayTestClient.connect(`${sandbox.wsUrl}/WSGateway/`);
      expect((await fresh.call('Ping')).payload).toEqual({ msg: 'PONG' });
      await fresh.close();
    } finally {
      await other.close();
    }
  });

  it('refuses an unknown session_token with 401', async () => {
    expect(await GatewayTestClient.upgradeStatus(`${sandbox.wsUrl}/WSGateway/?session_token=forged`)).toBe(
      401,
    );
    expect(await GatewayTestClient.upgradeStatus(`${sandbox.wsUrl}/WSGateway/?session_token=`)).toBe(101);
  });
});
