import { HubConnection } from '@microsoft/signalr';
import { RunningSandbox } from '../src/start-sandbox';
import { ExactJson, parseExactJson } from '../src/wire/exact-json';
import { eventually, GatewayTestClient, ReceivedFrame } from './support/gateway-test-client';
import { startTestSandbox } from './support/start-test-sandbox';
import { BookItem, BookMirror, hubClient } from './hub-test-support';

type Level = { price: string; amount: string };
type Truth = { book: { bids: Level[]; asks: Level[]; version: string } };

/** A book rebuilt from the gateway's Level2 rows, keyed by the exact price text. */
class GatewayBook {
  readonly bids = new Map<string, string>();
  readonly asks = new Map<string, string>();
  version = 0;

  apply(rows: ExactJson[][], replace: boolean): void {
    if (replace) {
      this.bids.clear();
      this.asks.clear();
    }
    for (const row of rows) {
      const [updateId, , , action, , , price, , quantity, side] = row as string[];
      const levels = side === '0' ? this.bids : this.asks;
      if (action === '2') levels.delete(price);
      else levels.set(price, quantity);
      this.version = Math.max(this.version, Number(updateId));
    }
  }
}

const INSTRUMENTS = ['btc_usdt', 'pepe_eth', 'shib_usdt'];

describe('every feed of the sandbox rebuilds the same book as /sandbox/truth', () => {
  let sandbox: RunningSandbox;
  let hub: HubConnection;
  let gateway: GatewayTestClient;

  beforeAll(async () => {
    sandbox = await startTestSandbox({ SANDBOX_FLOW_RATE: '40' });
  });

  afterAll(async () => {
    await hub?.stop();
    await gateway?.close();
    await sandbox.close();
  });

  it('hub stream, gateway Level2 and truth agree at the same version, digit for digit on the gateway', async () => {
    hub = hubClient(sandbox.baseUrl);
    await hub.start();
    const mirrors = new Map(
      INSTRUMENTS.map((i) => [i, new BookMirror().follow(hub.stream<BookItem>('Book', i))]),
    );

    const login = await fetch(`${sandbox.authUrl}/api/v1/trade/auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=demo%40example.com&password=demo',
    });
    const { data } = (await login.json()) as { data: { token: string; session_token: string } };
    gateway = await GatewayTestClient.connect(
      `${sandbox.wsUrl}/WSGateway/?session_token=${data.session_token}`,
    );
    expect((await gateway.call('WebAuthenticateUser', { SessionToken: data.token })).payload).toMatchObject({
      Authenticated: true,
    });
    const instruments = (await gateway.call('GetInstruments', { OMSId: 1 })).payload as {
      InstrumentId: string;
      Symbol: string;
    }[];
    const idOf = (instrument: string) =>
      instruments.find((row) => row.Symbol === instrument.replace('_', '').toUpperCase())!.InstrumentId;
    const books = new Map<string, GatewayBook>();
    for (const instrument of INSTRUMENTS) {
      const book = new GatewayBook();
      const reply = await gateway.call('SubscribeLevel2', {
        OMSId: 1,
        InstrumentId: Number(idOf(instrument)),
        Depth: 100000,
      });
      book.apply(reply.payload as ExactJson[][], true);
      books.set(instrument, book);
    }
    let seen = 0;
    const applyEvents = () => {
      const events = gateway.events('Level2UpdateEvent');
      for (const event of events.slice(seen) as ReceivedFrame[]) {
        const rows = event.payload as string[][];
        const instrument = INSTRUMENTS.find((i) => idOf(i) === rows[0]?.[7]);
        if (instrument) books.get(instrument)!.apply(rows, false);
      }
      seen = events.length;
    };

    // Let the market move while both feeds follow it, then hold it still.
    const start = new Map(INSTRUMENTS.map((i) => [i, sandbox.exchange.market(i)!.version]));
    await eventually(
      () => INSTRUMENTS.every((i) => sandbox.exchange.market(i)!.version > start.get(i)! + 20),
      15_000,
    );
    const paused = await fetch(`${sandbox.baseUrl}/sandbox/flow`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ratePerSecond: 0 }),
    });
    expect(paused.status).toBe(200);

    for (const instrument of INSTRUMENTS) {
      const truth = parseExactJson(
        await (await fetch(`${sandbox.baseUrl}/sandbox/truth/${instrument}`)).text(),
      ) as unknown as Truth;
      const version = Number(truth.book.version);
      await eventually(() => {
        applyEvents();
        return mirrors.get(instrument)!.version === version && books.get(instrument)!.version === version;
      }, 10_000);

      const exact = (levels: Level[]) => levels.map((l) => [l.price, l.amount]);
      const book = books.get(instrument)!;
      expect([...book.bids.entries()].sort(byPrice)).toEqual(exact(truth.book.bids).sort(byPrice));
      expect([...book.asks.entries()].sort(byPrice)).toEqual(exact(truth.book.asks).sort(byPrice));

      const asNumbers = (levels: Level[]) => levels.map((l) => [Number(l.price), Number(l.amount)]);
      const mirror = mirrors.get(instrument)!.book;
      expect([...mirror.bids.entries()].sort((a, b) => a[0] - b[0])).toEqual(asNumbers(truth.book.bids));
      expect([...mirror.asks.entries()].sort((a, b) => a[0] - b[0])).toEqual(asNumbers(truth.book.asks));
      expect(truth.book.bids.length).toBeGreaterThan(100);
    }
  });
});

function byPrice(a: string[], b: string[]): number {
  return Number(a[0]) - Number(b[0]) || (a[0] < b[0] ? -1 : 1);
}
