import { once } from 'node:events';
import { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import { webSocketWithBatchedReads } from '../read-batching';
import { joiningHubFrames } from './joined-hub-frames';

const RS = '\x1e';

/** A server that sends `frames` in one write of its socket as each client connects, and a client of the joining class. */
async function connect(
  frames: readonly (string | Buffer)[],
): Promise<{ client: WebSocket; close: () => Promise<void> }> {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await once(server, 'listening');
  server.on('connection', (peer) => {
    // Corked: the frames leave in one write and arrive in one read.
    const socket = (peer as unknown as { _socket: import('node:net').Socket })._socket;
    socket.cork();
    for (const frame of frames) peer.send(frame, { binary: Buffer.isBuffer(frame) });
    process.nextTick(() => socket.uncork());
  });
  const JoiningWebSocket = joiningHubFrames(webSocketWithBatchedReads(0));
  const client = new JoiningWebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`);
  return {
    client,
    close: async () => {
      client.terminate();
      for (const peer of server.clients) peer.terminate();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

function receive(client: WebSocket, count: number): Promise<{ data: string; binary: boolean }[]> {
  const received: { data: string; binary: boolean }[] = [];
  return new Promise((resolve) => {
    client.on('message', (data, binary) => {
      received.push({ data: String(data), binary });
      if (received.length === count) resolve(received);
    });
  });
}

describe('joiningHubFrames', () => {
  it('hands on the text frames of one read as one message, in order', async () => {
    const frames = ['{"type":2,"item":1}' + RS, '{"type":2,"item":2}' + RS, '{"type":6}' + RS];
    const { client, close } = await connect(frames);
    try {
      const [message] = await receive(client, 1);
      expect(message).toEqual({ data: frames.join(''), binary: false });
    } finally {
      await close();
    }
  });

  it('hands on a frame without a record separator, and binary frames, alone and in order', async () => {
    const { client, close } = await connect([
      'a' + RS,
      'cut short',
      'b' + RS,
      Buffer.from('c' + RS),
      'd' + RS,
    ]);
    try {
      const messages = await receive(client, 5);
      expect(messages).toEqual([
        { data: 'a' + RS, binary: false },
        { data: 'cut short', binary: false },
        { data: 'b' + RS, binary: false },
        { data: 'c' + RS, binary: true },
        { data: 'd' + RS, binary: false },
      ]);
    } finally {
      await close();
    }
  });

  it('hands on what waits before the socket closes', async () => {
    const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await once(server, 'listening');
    server.on('connection', (peer) => {
      peer.send('last' + RS);
      peer.close(1000);
    });
    const JoiningWebSocket = joiningHubFrames(webSocketWithBatchedReads(0));
    const client = new JoiningWebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`);
    const events: string[] = [];
    client.on('message', (data) => events.push(`message ${String(data)}`));
    client.on('close', (code) => events.push(`close ${code}`));
    await once(client, 'close');
    await new Promise((resolve) => server.close(resolve));
    expect(events).toEqual([`message last${RS}`, 'close 1000']);
  });
});
