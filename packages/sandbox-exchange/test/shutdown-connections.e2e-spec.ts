import { connect, Socket } from 'node:net';
import { RunningSandbox } from '../src/start-sandbox';
import { startTestSandbox } from './support/start-test-sandbox';

/** A raw connection to the sandbox that writes `text` and never closes its side by itself. */
async function openRaw(sandbox: RunningSandbox, text: string): Promise<Socket> {
  const socket = connect({ port: sandbox.port, host: '127.0.0.1', allowHalfOpen: true });
  socket.on('error', () => undefined);
  socket.on('data', () => undefined);
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.write(text);
  return socket;
}

/** Whether the sandbox closes, given far longer than its own grace for the websockets' closing handshakes. */
async function closes(sandbox: RunningSandbox): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), 15_000);
  });
  const outcome = await Promise.race([sandbox.close().then(() => true as const), hung]);
  clearTimeout(timer);
  return outcome;
}

describe('sandbox: shutdown with connections a client leaves open', () => {
  let sandbox: RunningSandbox;
  const sockets: Socket[] = [];

  beforeEach(async () => {
    sandbox = await startTestSandbox({ SANDBOX_FLOW_RATE: '0', SANDBOX_HISTORY_HOURS: '0' });
  });
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.destroy();
  });

  it('cuts off a refused upgrade whose client keeps its side open', async () => {
    const refused = await openRaw(
      sandbox,
      'GET /no-such-hub HTTP/1.1\r\nHost: sandbox\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n',
    );
    sockets.push(refused);
    // The refusal has been written once the client's side has ended.
    await new Promise<void>((resolve) => refused.once('end', () => resolve()));
    expect(await closes(sandbox)).toBe(true);
  });

  it('cuts off a request still under way', async () => {
    // Headers never finished: the server waits for the rest of the request.
    const waiting = await openRaw(sandbox, 'GET /frontoffice/api/info HTTP/1.1\r\nHost: sandbox\r\n');
    sockets.push(waiting);
    expect(await closes(sandbox)).toBe(true);
  });
});
