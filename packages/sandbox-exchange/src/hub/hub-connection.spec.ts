import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import { HubConnection, HubConnectionOptions } from './hub-connection';

const RS = '\x1e';
const KEEPALIVE_MS = 1000;
const HANDSHAKE_TIMEOUT_MS = 15_000;

/**
 * A hub connection on a real loopback websocket whose clock the test drives through `tick`, so
 * that timeouts of many seconds are checked at once.
 */
describe('HubConnection timing', () => {
  let http: Server;
  let sockets: WebSocketServer;
  let silenced: boolean;
  let connection: Promise<HubConnection>;
  let client: WebSocket;
  let received: string[];
  let closed: Promise<number>;

  beforeEach(async () => {
    silenced = false;
    http = createServer();
    sockets = new WebSocketServer({ server: http });
    const options: HubConnectionOptions = {
      keepAliveMs: KEEPALIVE_MS,
      handshakeTimeoutMs: HANDSHAKE_TIMEOUT_MS,
      isSilenced: () => silenced,
      onProtocolError: () => undefined,
    };
    connection = new Promise((resolve) =>
      sockets.once('connection', (socket) => resolve(new HubConnection(socket, new Map(), options))),
    );
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    client = new WebSocket(`ws://127.0.0.1:${(http.address() as AddressInfo).port}`);
    received = [];
    client.on('message', (data: Buffer) => received.push(data.toString('utf8')));
    closed = new Promise((resolve) => client.once('close', resolve));
    await new Promise((resolve) => client.once('open', resolve));
  });

  afterEach(async () => {
    client.terminate();
    sockets.close();
    await new Promise((resolve) => http.close(resolve));
  });

  async function handshake(): Promise<HubConnection> {
    client.send(`{"protocol":"json","version":1}${RS}`);
    await waitUntil(() => received.length === 1);
    return connection;
  }

  it('drops a client that does not complete the handshake within 15 seconds', async () => {
    const hub = await connection;
    hub.tick(Date.now() + HANDSHAKE_TIMEOUT_MS - 1000);
    expect(client.readyState).toBe(WebSocket.OPEN);
    hub.tick(Date.now() + HANDSHAKE_TIMEOUT_MS);
    expect(await closed).toBe(1006);
    expect(received).toEqual([]);
  });

  it('pings after a keep-alive interval without sending, and never while silenced', async () => {
    const hub = await handshake();
    expect(received).toEqual([`{}${RS}`]);
    hub.tick(Date.now() + KEEPALIVE_MS / 2);
    silenced = true;
    hub.tick(Date.now() + KEEPALIVE_MS);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(received).toHaveLength(1);
    silenced = false;
    hub.tick(Date.now() + KEEPALIVE_MS);
    await waitUntil(() => received.length === 2);
    expect(received[1]).toBe(`{"type":6}${RS}`);
  });

  it('does not hold the client quiet against it while the server is silenced', async () => {
    const hub = await handshake();
    silenced = true;
    hub.tick(Date.now() + 10 * KEEPALIVE_MS);
    silenced = false;
    hub.tick(Date.now() + 10 * KEEPALIVE_MS + KEEPALIVE_MS);
    expect(hub.isConnected).toBe(true);
    hub.tick(Date.now() + 12 * KEEPALIVE_MS);
    expect(await closed).toBe(1000);
    expect(received.join('')).toMatch(
      /\{"type":7,"error":"Client timeout elapsed without receiving a message from the client.","allowReconnect":true\}\x1e$/,
    );
  });

  it('sends the messages of one turn in one frame, and a frame sent alone on its own after them', async () => {
    const hub = await handshake();
    hub.send(`{"type":6}${RS}`);
    hub.send(`{"type":3,"invocationId":"1"}${RS}`);
    hub.sendAlone(`{"type":2${RS}`);
    hub.send(`{"type":6}${RS}`);
    await waitUntil(() => received.length === 4);
    expect(received.slice(1)).toEqual([
      `{"type":6}${RS}{"type":3,"invocationId":"1"}${RS}`,
      `{"type":2${RS}`,
      `{"type":6}${RS}`,
    ]);
  });
});

async function waitUntil(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(condition()).toBe(true);
}
