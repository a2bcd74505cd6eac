import { once } from 'node:events';
import { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import { openWebSocket, webSocketWithBatchedReads } from './read-batching';

/**
 * A server that runs `send` on each connection, and a client opening against it with batched reads
 * when asked; listen to the client's messages before the next turn.
 */
async function connect(
  pauseMs: number,
  send: (peer: WebSocket) => void,
): Promise<{ client: WebSocket; close: () => Promise<void> }> {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await once(server, 'listening');
  server.on('connection', send);
  const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = openWebSocket(url, {}, pauseMs);
  return {
    client,
    close: async () => {
      client.terminate();
      for (const peer of server.clients) peer.terminate();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

interface Received {
  readonly text: string;
  readonly at: number;
  /** Messages handed over in one turn of the event loop share it. */
  readonly turn: number;
}

/** Resolves with each message's text, receive time and event-loop turn once `count` have arrived. */
function receive(client: WebSocket, count: number): Promise<Received[]> {
  const received: Received[] = [];
  let turn = 0;
  let turnEnding = false;
  return new Promise((resolve) => {
    client.on('message', (data) => {
      if (!turnEnding) {
        turnEnding = true;
        setImmediate(() => {
          turn += 1;
          turnEnding = false;
        });
      }
      received.push({ text: String(data), at: performance.now(), turn });
      if (received.length === count) resolve(received);
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Long beside the server's 15 ms steps, so that a loaded machine's late timers cannot blur the two. */
const PAUSE_MS = 300;

describe('read batching', () => {
  it('holds what arrives during the pause after a message, then hands it over at once', async () => {
    const { client, close } = await connect(PAUSE_MS, (peer) => {
      void (async () => {
        peer.send('first');
        await sleep(15);
        peer.send('second');
        await sleep(15);
        peer.send('third');
      })();
    });
    try {
      const [first, second, third] = await receive(client, 3);
      expect([first.text, second.text, third.text]).toEqual(['first', 'second', 'third']);
      // Unbatched, the second arrives about 15 ms after the first, and the third in a turn of its own.
      // Half the pause: the first message's own handler may run late on a busy machine.
      expect(second.at - first.at).toBeGreaterThanOrEqual(PAUSE_MS / 2);
      expect(third.turn).toBe(second.turn);
    } finally {
      await close();
    }
  });

  it('reads each message as it arrives when off', async () => {
    const { client, close } = await connect(0, (peer) => {
      void (async () => {
        peer.send('first');
        await sleep(15);
        peer.send('second');
      })();
    });
    const pause = jest.spyOn(client, 'pause');
    try {
      const received = await receive(client, 2);
      expect(received.map(({ text }) => text)).toEqual(['first', 'second']);
      expect(pause).not.toHaveBeenCalled();
    } finally {
      await close();
    }
  });

  it('delivers every message in order, a trickle and then a backlog of megabytes', async () => {
    const trickle = 200;
    const backlog = 4_000;
    const padding = 'x'.repeat(1_000);
    const { client, close } = await connect(10, (peer) => {
      void (async () => {
        for (let i = 0; i < trickle; i++) {
          peer.send(`${i}`);
          if (i % 10 === 0) await sleep(1);
        }
        for (let i = trickle; i < trickle + backlog; i++) peer.send(`${i} ${padding}`);
      })();
    });
    try {
      const received = await receive(client, trickle + backlog);
      expect(received.map(({ text }) => Number(text.split(' ')[0]))).toEqual(
        Array.from({ length: trickle + backlog }, (_, i) => i),
      );
    } finally {
      await close();
    }
  });

  it('hands over what came before the server closed mid-pause, then the close', async () => {
    const { client, close } = await connect(100, (peer) => {
      peer.send('first');
      setTimeout(() => {
        peer.send('last');
        peer.close(1001, 'going away');
      }, 20);
    });
    try {
      const texts: string[] = [];
      client.on('message', (data) => texts.push(String(data)));
      // Seen once the pause ends; a socket left paused would not see it at all (the test would time out).
      const [code] = (await once(client, 'close')) as [number];
      expect(texts).toEqual(['first', 'last']);
      expect(code).toBe(1001);
    } finally {
      await close();
    }
  });

  it('gives the SignalR client a ws class that batches', async () => {
    const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await once(server, 'listening');
    server.on('connection', (peer) => {
      void (async () => {
        peer.send('first');
        await sleep(15);
        peer.send('second');
      })();
    });
    const BatchedWebSocket = webSocketWithBatchedReads(PAUSE_MS);
    const client = new BatchedWebSocket(
      `ws://127.0.0.1:${(server.address() as AddressInfo).port}`,
      undefined,
      {
        headers: { 'X-Test': '1' },
      },
    );
    try {
      const [first, second] = await receive(client, 2);
      expect(second.at - first.at).toBeGreaterThanOrEqual(PAUSE_MS / 2);
    } finally {
      client.terminate();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
