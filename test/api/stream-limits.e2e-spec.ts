import { request } from 'node:http';
import { waitFor } from '../support/fault-run';
import { StreamClient } from '../support/stream-client';
import { startTestStack, TestStack } from '../support/start-test-stack';

/** The status and body an upgrade of `/stream` is answered with, when it is not taken. */
function refusedUpgrade(url: string): Promise<{ status?: number; body: string }> {
  return new Promise((resolve, reject) => {
    const upgrade = request(`${url}/stream`, {
      headers: {
        Connection: 'Upgrade',
        Upgrade: 'websocket',
        'Sec-WebSocket-Version': '13',
        'Sec-WebSocket-Key': Buffer.from('sixteen byte key').toString('base64'),
      },
    });
    upgrade.on('response', (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode, body }));
    });
    upgrade.on('upgrade', (_response, socket) => {
      socket.destroy();
      reject(new Error('the upgrade was taken'));
    });
    upgrade.on('error', reject);
    upgrade.end();
  });
}

describe('GET /stream, limits', () => {
  let stack: TestStack;
  let url: string;
  const clients: StreamClient[] = [];

  async function connect(): Promise<StreamClient> {
    const client = new StreamClient(url);
    clients.push(client);
    await client.opened;
    return client;
  }

  /** A connection, once the server has let go of this address's closed ones. */
  async function connectWhenFree(): Promise<StreamClient> {
    let opened: StreamClient | undefined;
    await waitFor(
      () =>
        connect().then(
          (client) => ((opened = client), true),
          () => false,
        ),
      'a connection taken',
    );
    return opened!;
  }

  beforeAll(async () => {
    stack = await startTestStack({
      tuning: { streamMaxConnectionsPerAddress: 2, streamSubscribeRate: 1 },
    });
    url = stack.app.url;
  });
  afterAll(async () => {
    for (const client of clients) client.close();
    await stack?.close();
  });

  it('refuses one connection more than an address may hold with a 429, and takes it once one closes', async () => {
    const first = await connect();
    await connect();
    const refused = await refusedUpgrade(url);
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body)).toEqual({
      errors: [{ code: 'too_many_requests', message: 'at most 2 stream connections per client' }],
    });
    await expect(new StreamClient(url).opened).rejects.toThrow('the stream did not open');
    first.close();
    await waitFor(() => first.closeCode !== undefined, 'the first connection closed');
    await connectWhenFree();
    for (const client of clients) client.close();
  });

  it('answers a burst of subscribe frames over the rate with rate_limited and stays open', async () => {
    const client = await connectWhenFree();
    for (let i = 0; i < 10; i++) client.send({ op: 'subscribe', channels: ['ticker'] });
    client.send({ op: 'ping' });
    await client.frame((frame) => frame.type === 'pong');
    const answers = client.frames.filter((frame) => frame.type !== 'ticker');
    expect(answers.filter((frame) => frame.type === 'subscribed').length).toBeGreaterThanOrEqual(1);
    expect(answers.filter((frame) => frame.code === 'rate_limited').length).toBeGreaterThanOrEqual(1);
    expect(
      answers.filter((frame) => frame.type === 'error').every((frame) => frame.code === 'rate_limited'),
    ).toBe(true);
    await waitFor(
      () => {
        client.send({ op: 'unsubscribe', channels: ['ticker'] });
        return client.frames.some((frame) => frame.type === 'unsubscribed');
      },
      'an unsubscribe taken once the rate allows',
      10_000,
      400,
    );
    expect(client.closeCode).toBeUndefined();
  });
});
