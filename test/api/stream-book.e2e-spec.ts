import { canonicalDecimal } from '../../src/market/decimal';
import { BookChannelMessage } from '../../src/market/stream/book-channel-message';
import { BookReader } from '../../src/market/stream/testing/book-reader';
import { waitFor } from '../support/fault-run';
import { StreamClient } from '../support/stream-client';
import { startTestStack, TestStack } from '../support/start-test-stack';
import { readTruth, setFlow } from '../support/truth';

const CHANNEL = 'book.btc_usdt';

describe('GET /stream, book channels', () => {
  let stack: TestStack;
  let url: string;
  const clients: StreamClient[] = [];
  let closed = false;

  async function connect(): Promise<StreamClient> {
    const client = new StreamClient(url);
    clients.push(client);
    await client.opened;
    return client;
  }

  beforeAll(async () => {
    stack = await startTestStack({
      sandbox: { SANDBOX_FLOW_RATE: '40' },
      // A request timeout shorter than a connection's life: it must not cut a stream off.
      tuning: { streamHeartbeatMs: 300, streamMaxSubscriptions: 3, requestTimeoutMs: 1000 },
    });
    url = stack.app.url;
    await waitFor(async () => (await fetch(`${url}/orderbook/btc_usdt`)).ok, 'a served book');
  });
  afterAll(async () => {
    for (const client of clients) client.close();
    if (!closed) await stack?.close();
  });

  it('sends a book that a reader applying every message finds equal to the exchange, verified', async () => {
    const client = await connect();
    client.send({ op: 'subscribe', channels: ['book.BTC-USDT'] });
    expect(await client.frame((frame) => frame.type === 'subscribed')).toEqual({
      type: 'subscribed',
      channel: CHANNEL,
    });
    const reader = new BookReader();
    let applied = 0;
    const applyAll = () => {
      for (; applied < client.frames.length; applied++) {
        const frame = client.frames[applied];
        if (frame.channel === CHANNEL && frame.type !== 'subscribed')
          reader.read(frame as unknown as BookChannelMessage);
      }
    };
    await waitFor(() => {
      applyAll();
      return client.frames.filter((frame) => frame.type === 'update').length >= 20;
    }, 'twenty updates while the market moves');
    await setFlow(stack.sandbox, 0);
    let last = '';
    await waitFor(async () => {
      applyAll();
      const truth = await readTruth(stack.sandbox, 'btc_usdt');
      const canonical = (side: 'bid' | 'ask') =>
        reader.levels(side).map(([price, amount]) => [canonicalDecimal(price), canonicalDecimal(amount)]);
      last = `reader at ${reader.seq}, truth at ${truth.version}`;
      return (
        reader.seq === truth.version &&
        JSON.stringify(canonical('bid')) === JSON.stringify(truth.bids) &&
        JSON.stringify(canonical('ask')) === JSON.stringify(truth.asks)
      );
    }, 'the reader equal to the truth').catch((error: Error) => {
      throw new Error(`${error.message}; ${last}`);
    });
    expect(reader.problems).toEqual([]);
    expect(reader.state).toBe('live');
    const book = client.frames.filter((frame) => frame.channel === CHANNEL && frame.type !== 'subscribed');
    expect(book[0].type).toMatch(/^(snapshot|status)$/);
    expect(book.filter((frame) => frame.type === 'update').length).toBeGreaterThanOrEqual(20);
    await setFlow(stack.sandbox, 40);
  });

  it('answers a heartbeat after silence and a pong to a ping', async () => {
    const client = await connect();
    expect(await client.frame((frame) => frame.type === 'heartbeat')).toEqual({
      type: 'heartbeat',
      ts: expect.any(Number),
    });
    client.send({ op: 'ping' });
    expect(await client.frame((frame) => frame.type === 'pong')).toEqual({ type: 'pong' });
  });

  it('keeps a connection open longer than a request may take, with heartbeats', async () => {
    const client = await connect();
    await waitFor(
      () => client.frames.filter((frame) => frame.type === 'heartbeat').length >= 6,
      'heartbeats',
    );
    client.send({ op: 'ping' });
    await client.frame((frame) => frame.type === 'pong');
    expect(client.closeCode).toBeUndefined();
  });

  it('holds a connection to streamMaxSubscriptions channels, in one frame or several', async () => {
    const client = await connect();
    const channels = ['book.btc_usdt', 'book.eth_btc', 'book.eth_usdt', 'book.ltc_btc'];
    client.send({ op: 'subscribe', channels });
    expect(await client.frame((frame) => frame.type === 'error')).toMatchObject({
      code: 'too_many_channels',
    });
    client.send({ op: 'subscribe', channels: channels.slice(0, 3) });
    client.send({ op: 'subscribe', channels: channels.slice(3) });
    expect(
      await client.frame((frame) => frame.type === 'error' && frame.code !== 'too_many_channels'),
    ).toEqual({
      type: 'error',
      code: 'too_many_subscriptions',
      message: 'at most 3 channels per connection',
    });
    const subscribed = client.frames
      .filter((frame) => frame.type === 'subscribed')
      .map((frame) => frame.channel);
    expect(subscribed).toEqual(channels.slice(0, 3));
    client.send({ op: 'unsubscribe', channels: [channels[0]] });
    client.send({ op: 'subscribe', channels: channels.slice(3) });
    await client.frame((frame) => frame.type === 'subscribed' && frame.channel === channels[3]);
  });

  it.each([
    ['not JSON', '{op', 'bad_json'],
    ['not an object', '[1]', 'bad_frame'],
    ['an unknown op', { op: 'publish' }, 'unknown_op'],
    ['no channels', { op: 'subscribe' }, 'bad_channels'],
    ['a frame too large', { op: 'subscribe', channels: ['x'.repeat(5_000)] }, 'frame_too_large'],
    ['an unknown channel kind', { op: 'subscribe', channels: ['orders.btc_usdt'] }, 'unknown_channel'],
    ['an instrument not listed', { op: 'subscribe', channels: ['book.abc_xyz'] }, 'unknown_channel'],
    ['a malformed channel', { op: 'subscribe', channels: ['book.btcusdt'] }, 'bad_channel'],
    ['a trades channel not listed', { op: 'subscribe', channels: ['trades.abc_xyz'] }, 'unknown_channel'],
    [
      'an unsubscribe of a channel not followed',
      { op: 'unsubscribe', channels: [CHANNEL] },
      'not_subscribed',
    ],
  ])('answers %s with an error and stays open', async (_what, frame, code) => {
    const client = await connect();
    client.send(frame);
    expect(await client.frame((reply) => reply.type === 'error')).toEqual({
      type: 'error',
      code,
      message: expect.any(String),
    });
    const from = client.frames.length;
    client.send({ op: 'ping' });
    await client.frame((reply) => reply.type === 'pong', from);
    expect(client.closeCode).toBeUndefined();
  });

  it('unsubscribes, and refuses a websocket on another path', async () => {
    const client = await connect();
    client.send({ op: 'subscribe', channels: [CHANNEL] });
    await client.frame((frame) => frame.type === 'subscribed');
    client.send({ op: 'unsubscribe', channels: [CHANNEL] });
    expect(await client.frame((frame) => frame.type === 'unsubscribed')).toEqual({
      type: 'unsubscribed',
      channel: CHANNEL,
    });
    const elsewhere = new WebSocket(`${url.replace(/^http/, 'ws')}/orderbook/btc_usdt`);
    const failed = await new Promise<boolean>((resolve) => {
      elsewhere.addEventListener('open', () => resolve(false));
      elsewhere.addEventListener('error', () => resolve(true));
    });
    expect(failed).toBe(true);
  });

  it('tells every reader to reconnect elsewhere when the application closes', async () => {
    const readers = [await connect(), await connect()];
    readers[0].send({ op: 'subscribe', channels: [CHANNEL] });
    await readers[0].frame((frame) => frame.type === 'snapshot');
    const closing = stack.close();
    for (const reader of readers) {
      await waitFor(() => reader.closeCode !== undefined, 'the connection closed');
      expect(reader.frames.at(-1)).toEqual({ type: 'shutdown' });
      expect(reader.closeCode).toBe(1012);
    }
    await closing;
    closed = true;
  });
});
