import { waitFor } from '../support/fault-run';
import { MetricSample, readMetrics, sampleValue } from '../support/metrics-text';
import { Frame, StreamClient } from '../support/stream-client';
import { AsyncApiDocument, StreamContract } from '../support/stream-contract';
import { startTestStack, TestStack } from '../support/start-test-stack';

const INSTRUMENT = 'btc_usdt';

/**
 * A running gateway against the AsyncAPI document it serves: every frame type is provoked, and every
 * frame any reader got must match exactly one message the document says the gateway sends.
 */
describe('GET /stream against its AsyncAPI document', () => {
  let stack: TestStack;
  let url: string;
  let contract: StreamContract;
  const clients: StreamClient[] = [];
  const requests: unknown[] = [];
  let closed = false;

  async function connect(): Promise<StreamClient> {
    const client = new StreamClient(url);
    clients.push(client);
    await client.opened;
    return client;
  }

  /** Sends a request the document describes; the last test checks that it does. */
  function request(client: StreamClient, frame: object): void {
    requests.push(frame);
    client.send(frame);
  }

  const received = () => clients.flatMap((client) => client.frames);
  const codes = (client: StreamClient) =>
    client.frames.filter((frame) => frame.type === 'error').map((frame) => frame.code as string);

  beforeAll(async () => {
    stack = await startTestStack({
      sandbox: { SANDBOX_FLOW_RATE: '40' },
      tuning: { streamHeartbeatMs: 200, streamMaxSubscriptions: 3 },
    });
    url = stack.app.url;
    contract = new StreamContract(
      (await (await fetch(`${url}/docs/asyncapi.json`)).json()) as AsyncApiDocument,
    );
    await waitFor(async () => {
      const response = await fetch(`${url}/trades/${INSTRUMENT}`);
      return response.ok && ((await response.json()) as unknown[]).length > 0;
    }, 'trades served');
  });
  afterAll(async () => {
    for (const client of clients) client.close();
    if (!closed) await stack?.close();
  });

  it('sends book snapshots and updates, trades and ticker records', async () => {
    const client = await connect();
    request(client, { op: 'subscribe', channels: ['book.BTC-USDT', `trades.${INSTRUMENT}`, 'ticker'] });
    for (const type of ['subscribed', 'snapshot', 'update', 'trades', 'ticker'])
      await client.frame((frame) => frame.type === type);
    const candles = await connect();
    request(candles, { op: 'subscribe', channels: ['candles.BTC-USDT.1', `candles.${INSTRUMENT}.1D`] });
    await candles.frame((frame) => frame.type === 'candle' && frame.channel === `candles.${INSTRUMENT}.1`);
    await candles.frame((frame) => frame.type === 'candle' && frame.channel === `candles.${INSTRUMENT}.1D`);
  });

  it('answers a ping, idles with heartbeats, and answers every kind of bad request with its error', async () => {
    const client = await connect();
    await client.frame((frame) => frame.type === 'heartbeat');
    request(client, { op: 'ping', tag: 'a client may tag its requests' });
    await client.frame((frame) => frame.type === 'pong');
    for (const bad of [
      '{op',
      '[1]',
      { op: 'publish' },
      { op: 'subscribe' },
      { op: 'subscribe', channels: ['x'.repeat(5_000)] },
      { op: 'subscribe', channels: ['ticker', 'ticker', 'ticker', 'ticker'] },
      { op: 'subscribe', channels: ['orders.btc_usdt'] },
      { op: 'subscribe', channels: ['book.btcusdt'] },
      { op: 'subscribe', channels: [`candles.${INSTRUMENT}.2`] },
      { op: 'unsubscribe', channels: ['ticker'] },
      new Uint8Array([1, 2, 3]),
    ])
      client.send(bad);
    request(client, { op: 'subscribe', channels: ['ticker'] });
    request(client, { op: 'unsubscribe', channels: ['ticker'] });
    await client.frame((frame) => frame.type === 'unsubscribed');
    await waitFor(() => codes(client).length >= 11, 'eleven errors');
    expect(codes(client).sort()).toEqual(
      [
        'bad_json',
        'bad_frame',
        'unknown_op',
        'bad_channels',
        'frame_too_large',
        'too_many_channels',
        'unknown_channel',
        'bad_channel',
        'bad_channel',
        'not_subscribed',
        'binary_frame',
      ].sort(),
    );

    const busy = await connect();
    request(busy, { op: 'subscribe', channels: [`book.${INSTRUMENT}`, 'book.eth_btc', 'ticker'] });
    request(busy, { op: 'subscribe', channels: [`trades.${INSTRUMENT}`] });
    for (let i = 0; i < 12; i++) request(busy, { op: 'subscribe', channels: ['ticker'] });
    await waitFor(
      () => codes(busy).includes('too_many_subscriptions') && codes(busy).includes('rate_limited'),
      'too_many_subscriptions and rate_limited',
    );
  });

  it('says resyncing when the store restarts empty', async () => {
    const client = await connect();
    request(client, { op: 'subscribe', channels: [`trades.${INSTRUMENT}`, `book.${INSTRUMENT}`] });
    await client.frame((frame) => frame.type === 'trades');
    await stack.redis!.restart();
    await client.frame((frame) => frame.type === 'status');
  });

  it('counts its readers, their channels, the frames and errors it sent, and refused upgrades', async () => {
    const elsewhere = new WebSocket(`${url.replace(/^http/, 'ws')}/elsewhere`);
    await new Promise((resolve) => elsewhere.addEventListener('error', resolve));
    const open = clients.filter((client) => client.closeCode === undefined);
    const errorCodes = ['bad_json', 'rate_limited', 'too_many_subscriptions'];
    const errorCounts = (samples: MetricSample[]) =>
      errorCodes.map((code) => [
        sampleValue(samples, 'mdg_stream_errors_sent_total', { code }),
        received().filter((frame) => frame.code === code).length,
      ]);
    let samples: MetricSample[] = [];
    /** The frames received before the last scrape: each was counted by then. */
    let receivedBeforeScrape: ReturnType<typeof received> = [];
    // Error frames sent may still be on their way; none is sent meanwhile.
    await waitFor(async () => {
      receivedBeforeScrape = [...received()];
      samples = await readMetrics(url);
      return errorCounts(samples).every(([sent, got]) => sent === got);
    }, 'every error frame sent received').catch(() => expect(errorCounts(samples)).toEqual([]));
    expect(sampleValue(samples, 'mdg_stream_connections')).toBe(open.length);
    expect(sampleValue(samples, 'mdg_stream_subscriptions', { kind: 'ticker' })).toBe(2);
    expect(sampleValue(samples, 'mdg_stream_upgrade_refusals_total', { status: '404' })).toBe(1);
    // Frames still on their way have been counted already; those received after the scrape may not.
    for (const type of ['snapshot', 'update', 'trades', 'ticker', 'heartbeat', 'status'])
      expect(sampleValue(samples, 'mdg_stream_messages_sent_total', { type })).toBeGreaterThanOrEqual(
        receivedBeforeScrape.filter((frame) => frame.type === type).length,
      );
  });

  it('tells every reader it stops, then closes with 1012', async () => {
    const open = clients.filter((client) => client.closeCode === undefined);
    expect(open.length).toBeGreaterThan(0);
    await stack.close();
    closed = true;
    for (const client of open) {
      await waitFor(() => client.closeCode !== undefined, 'the connection closed');
      expect(client.frames.at(-1)).toEqual({ type: 'shutdown' });
      expect(client.closeCode).toBe(1012);
    }
  });

  it('sent only frames that match exactly one message of the document, of every message', () => {
    const wrong: { frame: Frame; matches: string[]; problems?: string[] }[] = [];
    const seen = new Set<string>();
    for (const frame of received()) {
      const matches = contract.matches('send', frame);
      if (matches.length === 1) seen.add(matches[0]);
      else
        wrong.push({
          frame,
          matches,
          problems: matches.length === 0 ? contract.problems('send', frame.type, frame) : undefined,
        });
    }
    expect(wrong.slice(0, 5)).toEqual([]);
    expect([...seen].sort()).toEqual(contract.names('send').sort());
    expect(received().length).toBeGreaterThan(50);
  });

  it('was sent requests that each match exactly one message the document says it receives', () => {
    expect(requests.map((frame) => contract.matches('receive', frame))).toEqual(
      requests.map((frame) => [(frame as { op: string }).op]),
    );
  });
});
