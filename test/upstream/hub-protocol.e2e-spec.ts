import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import { HubClient } from '../../src/upstream/hub/hub-client';
import { RebuiltBook, RecordingLogger, testHubClient, waitFor } from './hub-client-support';

const RS = '\x1e';
/** 18 decimals and 27 significant digits: no double holds it. */
const EXACT_AMOUNT = '123456789.123456789012345678';
const EXACT_PRICE = '0.000000004321987654';

/**
 * A hub written by hand, to send what the sandbox does not: the handshake response batched with
 * messages in one frame, a refused handshake, several stream messages per frame.
 */
class HandMadeHub {
  readonly received: string[] = [];
  refuseHandshake = false;
  private readonly sockets = new WebSocketServer({ noServer: true });
  private readonly server: Server = createServer();

  async listen(): Promise<string> {
    this.server.on('upgrade', (request, socket, head) =>
      this.sockets.handleUpgrade(request, socket, head, (websocket) => this.accept(websocket)),
    );
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets.clients) socket.terminate();
    this.sockets.close();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private accept(socket: WebSocket): void {
    let handshaken = false;
    socket.on('message', (data: Buffer) => {
      for (const message of data.toString('utf8').split(RS).slice(0, -1)) {
        this.received.push(message);
        if (!handshaken) {
          handshaken = true;
          if (this.refuseHandshake) {
            socket.send(`{"error":"Requested protocol 'json' is not available."}${RS}`);
            socket.close(1000);
          } else {
            socket.send(`{}${RS}{"type":6}${RS}`);
          }
          continue;
        }
        const parsed = JSON.parse(message) as { type: number; invocationId?: string; arguments?: string[] };
        if (parsed.type === 4) this.streamBook(socket, parsed.invocationId!, parsed.arguments![0]);
      }
    });
  }

  private streamBook(socket: WebSocket, invocationId: string, instrument: string): void {
    const item = (version: number, snapshot: boolean, amount: string) =>
      `{"type":2,"invocationId":"${invocationId}","item":{"instrument":"${instrument}",` +
      `"bids":[{"amount":${amount},"price":${EXACT_PRICE}}],"asks":[],"version":${version},` +
      `"askTotalAmount":0,"bidTotalAmount":${amount},"snapshot":${snapshot}}}${RS}`;
    socket.send(
      item(10, true, EXACT_AMOUNT) +
        `{"type":2,"invocationId":"${invocationId}","item":{"instrument":${RS}` +
        `{"type":6}${RS}` +
        item(11, false, '0.000000000000000001'),
    );
  }
}

describe('ExactJsonHubProtocol in the official client, against a hand-made hub', () => {
  let hub: HandMadeHub;
  let baseUrl: string;
  let client: HubClient;
  let logger: RecordingLogger;

  beforeEach(async () => {
    hub = new HandMadeHub();
    baseUrl = await hub.listen();
    ({ client, logger } = testHubClient(baseUrl));
  });

  afterEach(async () => {
    await client.stop();
    await hub.close();
  });

  it('asks for json version 1, takes messages batched with the handshake response, keeps every digit', async () => {
    const book = new RebuiltBook();
    client.openBook('pepe_eth', book);
    client.start();
    await waitFor(() => book.messages.length === 2, 'both items');
    expect(JSON.parse(hub.received[0])).toEqual({ protocol: 'json', version: 1 });
    expect(book.messages.map(({ version, snapshot, updates }) => ({ version, snapshot, updates }))).toEqual([
      { version: 10, snapshot: true, updates: [{ side: 'bid', price: EXACT_PRICE, amount: EXACT_AMOUNT }] },
      {
        version: 11,
        snapshot: false,
        updates: [{ side: 'bid', price: EXACT_PRICE, amount: '0.000000000000000001' }],
      },
    ]);
    // The message cut short between the two items cost itself only.
    expect(client.counters.malformedMessages).toBe(1);
    expect(client.state).toBe('connected');
    expect(book.interruptions).toEqual([]);
  });

  it('retries a start whose handshake the hub refuses, until the hub accepts it', async () => {
    hub.refuseHandshake = true;
    const book = new RebuiltBook();
    client.openBook('pepe_eth', book);
    client.start();
    await waitFor(
      () => logger.lines.filter((line) => line.includes('Server returned handshake error')).length >= 2,
      'refused handshakes',
    );
    expect(client.state).toBe('connecting');

    hub.refuseHandshake = false;
    await waitFor(() => book.snapshots.length === 1, 'the snapshot');
    expect(client.state).toBe('connected');
  });
});
