import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';

export interface GatewayFrame {
  readonly m: number;
  readonly i: number;
  readonly n: string;
  readonly o: string;
}

/** A frame as the gateway writes it: `o` is the payload encoded as a JSON string. */
export function frameText(m: number, i: number, n: string, payload: unknown): string {
  return JSON.stringify({ m, i, n, o: JSON.stringify(payload) });
}

/**
 * A minimal websocket gateway on a real socket at `/WSGateway/`, without login: answers Ping, answers
 * each SubscribeLevel2 with the snapshot `snapshots` holds for its InstrumentId and Unsubscribe calls
 * with success, and otherwise sends exactly the text the test gives it, junk included.
 */
export class TinyGateway {
  readonly snapshots = new Map<number, unknown[][]>();
  readonly subscribed = new Set<number>();
  connections = 0;
  private socket?: WebSocket;
  private readonly http: Server = createServer((_request, response) => response.writeHead(404).end());
  private readonly ws = new WebSocketServer({ server: this.http, path: '/WSGateway/' });

  constructor() {
    this.ws.on('connection', (socket) => this.accept(socket));
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.http.listen(0, '127.0.0.1', resolve));
    return `ws://127.0.0.1:${(this.http.address() as AddressInfo).port}`;
  }

  send(text: string): Promise<void> {
    const socket = this.socket;
    if (!socket || socket.readyState !== WebSocket.OPEN)
      return Promise.reject(new Error('no client connected'));
    return new Promise((resolve, reject) =>
      socket.send(text, (error) => (error ? reject(error) : resolve())),
    );
  }

  async close(): Promise<void> {
    for (const client of this.ws.clients) client.terminate();
    await new Promise<void>((resolve) => this.ws.close(() => resolve()));
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }

  private accept(socket: WebSocket): void {
    this.connections += 1;
    this.socket = socket;
    socket.on('message', (data) => {
      const request = JSON.parse(String(data)) as GatewayFrame;
      const payload = JSON.parse(request.o) as { InstrumentId?: number };
      const answer = (value: unknown) => socket.send(frameText(1, request.i, request.n, value));
      if (request.n === 'Ping') answer({ msg: 'PONG' });
      else if (request.n === 'SubscribeLevel2') {
        const id = Number(payload.InstrumentId);
        this.subscribed.add(id);
        answer(this.snapshots.get(id) ?? []);
      } else answer({ result: true, errormsg: null, errorcode: 0, detail: null });
    });
  }
}
