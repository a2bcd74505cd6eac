import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';

export const RS = '\x1e';

/**
 * A minimal SignalR JSON hub on a real socket at `/marketdata/info`: answers the handshake, records
 * each `Book` stream the client opens (its invocation id per instrument, the newest one winning),
 * and otherwise sends exactly the text the test gives it, junk included.
 */
export class TinyHub {
  /** The newest invocation id of each instrument's `Book` stream. */
  readonly streams = new Map<string, string>();
  connections = 0;
  private socket?: WebSocket;
  private readonly http: Server = createServer((_request, response) => response.writeHead(404).end());
  private readonly ws = new WebSocketServer({ server: this.http, path: '/marketdata/info' });
  private readonly listeners = new Set<(instrument: string, invocationId: string) => void>();

  constructor() {
    this.ws.on('connection', (socket) => this.accept(socket));
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.http.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.http.address() as AddressInfo).port}`;
  }

  /** Calls `listener` whenever the client opens a `Book` stream. */
  onStream(listener: (instrument: string, invocationId: string) => void): void {
    this.listeners.add(listener);
  }

  /** Sends one websocket text message as is; resolves once it is written. */
  send(text: string): Promise<void> {
    const socket = this.socket;
    if (!socket || socket.readyState !== WebSocket.OPEN)
      return Promise.reject(new Error('no client connected'));
    return new Promise((resolve, reject) =>
      socket.send(text, (error) => (error ? reject(error) : resolve())),
    );
  }

  /** A stream item for the instrument's current stream, as one record. */
  item(instrument: string, item: unknown): string {
    return `${JSON.stringify({ type: 2, invocationId: this.streams.get(instrument), item })}${RS}`;
  }

  async close(): Promise<void> {
    for (const client of this.ws.clients) client.terminate();
    await new Promise<void>((resolve) => this.ws.close(() => resolve()));
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }

  private accept(socket: WebSocket): void {
    this.connections += 1;
    this.socket = socket;
    let handshaken = false;
    socket.on('message', (data) => {
      for (const record of String(data)
        .split(RS)
        .filter((text) => text !== '')) {
        const message = JSON.parse(record) as {
          type?: number;
          target?: string;
          invocationId?: string;
          arguments?: unknown[];
        };
        if (!handshaken) {
          handshaken = true;
          socket.send(`{}${RS}`);
          continue;
        }
        if (message.type === 4 && message.target === 'Book') {
          const instrument = String(message.arguments?.[0]);
          this.streams.set(instrument, String(message.invocationId));
          for (const listener of this.listeners) listener(instrument, String(message.invocationId));
        }
      }
    });
  }
}
