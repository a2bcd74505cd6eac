import { MessageType } from '@microsoft/signalr';
import { WebSocket } from 'ws';
import { RECORD_SEPARATOR } from '../upstream/hub/exact-json-hub-protocol';
import { levelsJson, PlayerState } from './player-state';

const PING_EVERY_MS = 5_000;
const INVOCATION_ID = /"invocationId":"(?:[^"\\]|\\.)*"/;

interface BookStreamRequest {
  readonly type: number;
  readonly invocationId?: string;
  readonly target?: string;
  readonly arguments?: unknown[];
}

/**
 * The market-data hub as the player serves it: the SignalR JSON protocol over a websocket, one
 * method, `Book(instrument)`, which streams the book as the recording has it now, then each recorded
 * item of it as it is played (with this stream's invocation id).
 */
export class PlayerHub {
  /** The open `Book` streams of each market: socket and invocation id. */
  private readonly streams = new Map<string, Map<WebSocket, string>>();

  constructor(private readonly state: PlayerState) {}

  accept(socket: WebSocket): void {
    let handshaken = false;
    const ping = setInterval(() => send(socket, { type: MessageType.Ping }), PING_EVERY_MS);
    socket.on('close', () => {
      clearInterval(ping);
      for (const sockets of this.streams.values()) sockets.delete(socket);
    });
    socket.on('message', (data) => {
      for (const text of data.toString().split(RECORD_SEPARATOR)) {
        if (text === '') continue;
        if (!handshaken) {
          handshaken = true;
          socket.send(`{}${RECORD_SEPARATOR}`);
          continue;
        }
        let message: BookStreamRequest;
        try {
          message = JSON.parse(text) as BookStreamRequest;
        } catch {
          socket.close(1002, 'not JSON');
          return;
        }
        this.receive(socket, message);
      }
    });
  }

  /** A recorded item of `instrument`, to every stream of it. */
  send(instrument: string, record: string): void {
    const sockets = this.streams.get(instrument);
    if (!sockets) return;
    // The item goes on as recorded, digit for digit: only the invocation id is this stream's.
    for (const [socket, invocationId] of sockets)
      if (socket.readyState === WebSocket.OPEN)
        socket.send(
          record.replace(INVOCATION_ID, `"invocationId":${JSON.stringify(invocationId)}`) + RECORD_SEPARATOR,
        );
  }

  private receive(socket: WebSocket, message: BookStreamRequest): void {
    const invocationId = message.invocationId ?? '';
    if (message.type === MessageType.CancelInvocation) {
      for (const sockets of this.streams.values())
        if (sockets.get(socket) === invocationId) sockets.delete(socket);
      return;
    }
    if (message.type !== MessageType.StreamInvocation) return;
    const instrument = String(message.arguments?.[0] ?? '').toLowerCase();
    const book = this.state.book(instrument);
    if (message.target?.toLowerCase() !== 'book' || !book) {
      send(socket, {
        type: MessageType.Completion,
        invocationId,
        error: `Unknown instrument '${instrument}'.`,
      });
      return;
    }
    // Bids ascending, as the hub writes them.
    const item =
      `{"instrument":${JSON.stringify(instrument)},"bids":${levelsJson([...book.bids].reverse())},` +
      `"asks":${levelsJson(book.asks)},"version":${book.version},"snapshot":true}`;
    socket.send(
      `{"type":${MessageType.StreamItem},"invocationId":${JSON.stringify(invocationId)},"item":${item}}${RECORD_SEPARATOR}`,
    );
    let sockets = this.streams.get(instrument);
    if (!sockets) this.streams.set(instrument, (sockets = new Map()));
    sockets.set(socket, invocationId);
  }
}

function send(socket: WebSocket, message: object): void {
  if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message) + RECORD_SEPARATOR);
}
