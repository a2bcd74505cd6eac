import { waitFor } from '../support/fault-run';
import { StreamClient } from '../support/stream-client';
import { startTestStack, TestStack } from '../support/start-test-stack';
import { setFlow } from '../support/truth';

interface ListedTrade {
  tradeID: string;
  price: string;
  base_volume: string;
  type: string;
  trade_timestamp: string;
}

interface SentTrade {
  id: string;
  price: string;
  amount: string;
  side: string;
  time: number;
}

const INSTRUMENT = 'btc_usdt';

describe('GET /stream, trades and ticker channels', () => {
  let stack: TestStack;
  let url: string;
  const clients: StreamClient[] = [];

  async function connect(): Promise<StreamClient> {
    const client = new StreamClient(url);
    clients.push(client);
    await client.opened;
    return client;
  }

  async function get<T>(path: string): Promise<T> {
    const response = await fetch(`${url}${path}`);
    if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
    return (await response.json()) as T;
  }

  /** What the REST endpoints serve, read until two reads in a row agree: the flow has paused. */
  async function settled<T>(path: string): Promise<T> {
    let previous = '';
    let body: T | undefined;
    await waitFor(
      async () => {
        body = await get<T>(path);
        const text = JSON.stringify(body);
        const same = text === previous;
        previous = text;
        return same;
      },
      `${path} settled`,
      10_000,
      300,
    );
    return body!;
  }

  beforeAll(async () => {
    stack = await startTestStack({ sandbox: { SANDBOX_FLOW_RATE: '40' } });
    url = stack.app.url;
    await waitFor(async () => {
      const response = await fetch(`${url}/trades/${INSTRUMENT}`);
      return response.ok && ((await response.json()) as unknown[]).length > 0;
    }, 'trades served');
  });
  afterAll(async () => {
    for (const client of clients) client.close();
    await stack?.close();
  });

  it('sends every trade made after the subscription once, as /trades serves it', async () => {
    const client = await connect();
    client.send({ op: 'subscribe', channels: ['trades.BTC-USDT'] });
    expect(await client.frame((frame) => frame.type === 'subscribed')).toEqual({
      type: 'subscribed',
      channel: `trades.${INSTRUMENT}`,
    });
    const before = new Set((await get<ListedTrade[]>(`/trades/${INSTRUMENT}`)).map((trade) => trade.tradeID));
    const sent = () =>
      client.frames
        .filter((frame) => frame.type === 'trades')
        .flatMap((frame) => frame.trades as SentTrade[]);
    await waitFor(() => sent().length >= 10, 'ten trades while the market moves');
    await setFlow(stack.sandbox, 0);
    const listed = await settled<ListedTrade[]>(`/trades/${INSTRUMENT}`);
    const served = new Map(
      listed.map((trade): [string, SentTrade] => [
        trade.tradeID,
        {
          id: trade.tradeID,
          price: trade.price,
          amount: trade.base_volume,
          side: trade.type,
          time: Number(trade.trade_timestamp),
        },
      ]),
    );
    const after = listed.filter((trade) => !before.has(trade.tradeID)).map((trade) => trade.tradeID);
    expect(after.length).toBeGreaterThan(0);
    await waitFor(() => {
      const ids = new Set(sent().map((trade) => trade.id));
      return after.every((id) => ids.has(id));
    }, 'every trade made after the subscription');
    const trades = sent();
    expect(new Set(trades.map((trade) => trade.id)).size).toBe(trades.length);
    for (const trade of trades) expect(trade).toEqual(served.get(trade.id));
    const order = trades.map((trade) => [trade.time, BigInt(trade.id)] as const);
    const sorted = [...order].sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
    expect(order).toEqual(sorted);
    expect(client.frames.some((frame) => frame.type === 'status')).toBe(false);
    await setFlow(stack.sandbox, 40);
  });

  it('sends every market on subscribe, then records that end equal to /summary', async () => {
    const client = await connect();
    client.send({ op: 'subscribe', channels: ['ticker'] });
    await client.frame((frame) => frame.type === 'subscribed');
    const markets = Object.keys(await get<Record<string, unknown>>('/summary'));
    await waitFor(
      () => client.frames.filter((frame) => frame.type === 'ticker').length >= markets.length,
      'one record per market',
    );
    const first = client.frames.filter((frame) => frame.type === 'ticker').slice(0, markets.length);
    expect(first.map((frame) => frame.market).sort()).toEqual([...markets].sort());
    const count = client.frames.length;
    await waitFor(() => client.frames.length > count + 5, 'records while the market moves');
    await setFlow(stack.sandbox, 0);
    const summary = await settled<Record<string, unknown>>('/summary');
    const latest = () => {
      const records: Record<string, unknown> = {};
      for (const frame of client.frames.filter((each) => each.type === 'ticker')) {
        const record: Record<string, unknown> = { ...frame };
        for (const key of ['type', 'channel', 'market']) delete record[key];
        records[String(frame.market)] = record;
      }
      return records;
    };
    await waitFor(
      () => JSON.stringify(latest()) === JSON.stringify(summary),
      'the latest records equal to /summary',
    ).catch(() => expect(latest()).toEqual(summary));
    await setFlow(stack.sandbox, 40);
  });

  it('says resyncing when Redis restarts empty, and goes on without sending a trade twice', async () => {
    const client = await connect();
    client.send({ op: 'subscribe', channels: [`trades.${INSTRUMENT}`] });
    const sent = () =>
      client.frames
        .filter((frame) => frame.type === 'trades')
        .flatMap((frame) => frame.trades as SentTrade[]);
    await waitFor(() => sent().length >= 3, 'trades before the restart');
    await stack.redis!.restart();
    const status = await client.frame((frame) => frame.type === 'status', 0);
    expect(status).toEqual({ type: 'status', channel: `trades.${INSTRUMENT}`, state: 'resyncing' });
    const at = client.frames.indexOf(status);
    await client.frame((frame) => frame.type === 'trades', at);
    await setFlow(stack.sandbox, 0);
    const listed = await settled<ListedTrade[]>(`/trades/${INSTRUMENT}`);
    const served = new Set(listed.map((trade) => trade.tradeID));
    const ids = sent().map((trade) => trade.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id) => !served.has(id))).toEqual([]);
    await setFlow(stack.sandbox, 40);
  });
});
