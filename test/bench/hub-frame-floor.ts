import WebSocket from 'ws';
import { OrderBook } from '../../src/market/order-book';
import { bookMessageOf, BookItem } from '../../src/upstream/hub/book-item-codec';
import { ExactJsonHubProtocol, RECORD_SEPARATOR } from '../../src/upstream/hub/exact-json-hub-protocol';
import { MARKET_DATA_HUB_PATH } from '../../src/upstream/hub/hub-url';
import { median } from './book-timing';

/**
 * The floor of the ingest's work on the hub's frames: the text frames of the `Book` streams of
 * `instruments`, recorded by a bare websocket beside the gateway, then read and applied exactly
 * (the gateway's own hub protocol, `bookMessageOf` and `OrderBook`) in this process, timed in
 * process CPU. Nothing else of the ingest is in it: no SignalR client, no sync state machine, no
 * store write, no socket.
 */
export class HubFrameRecorder {
  private readonly frames: string[] = [];
  private recording = false;

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data: Buffer, isBinary: boolean) => {
      if (!isBinary) this.frames.push(data.toString());
    });
  }

  /** Opens the hub of the exchange at `baseUrl` and every instrument's `Book` stream. */
  static async open(baseUrl: string, instruments: readonly string[]): Promise<HubFrameRecorder> {
    const url = `${baseUrl.replace(/^http/, 'ws')}${MARKET_DATA_HUB_PATH}`;
    const socket = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    const recorder = new HubFrameRecorder(socket);
    socket.send(`{"protocol":"json","version":1}${RECORD_SEPARATOR}`);
    instruments.forEach((instrument, index) =>
      socket.send(
        JSON.stringify({ type: 4, invocationId: String(index), target: 'Book', arguments: [instrument] }) +
          RECORD_SEPARATOR,
      ),
    );
    return recorder;
  }

  /** Drops what came so far (the handshake, the snapshots) and keeps what comes from now on. */
  start(): void {
    this.frames.length = 0;
    this.recording = true;
  }

  /** The frames since `start`; the socket is closed. */
  stop(): string[] {
    this.socket.close();
    if (!this.recording) return [];
    this.recording = false;
    return this.frames.splice(0);
  }
}

export interface FrameFloor {
  /** Delta items in the frames. */
  readonly deltas: number;
  /** Process CPU milliseconds per 1,000 deltas: the median of the rounds, and the lowest and highest. */
  readonly cpuMsPer1000: number;
  readonly lowest: number;
  readonly highest: number;
}

/**
 * Reads and applies `frames` `rounds` times on fresh books, after one untimed pass that warms the
 * code up. Each book starts empty: a delta's level is set or removed alike, so the cost is that of
 * the stream whatever the book held before.
 */
export function frameFloor(frames: readonly string[], rounds = 5): FrameFloor {
  const protocol = new ExactJsonHubProtocol((error) => {
    throw error;
  });
  let deltas = 0;
  const pass = (): number => {
    const books = new Map<string, OrderBook>();
    let items = 0;
    const started = process.cpuUsage();
    for (const frame of frames) {
      for (const message of protocol.parseMessages(frame, null)) {
        if (message.type !== 2) continue;
        const { instrument, snapshot, updates, version } = bookMessageOf(message.item as BookItem, 0);
        let book = books.get(instrument);
        if (!book) books.set(instrument, (book = new OrderBook({ trackChanges: false })));
        if (snapshot) book.replace(updates, version, 0);
        else {
          items++;
          for (const update of updates) book.apply(update);
        }
      }
    }
    const used = process.cpuUsage(started);
    deltas = items;
    return (used.user + used.system) / 1000;
  };
  pass();
  const perThousand: number[] = [];
  for (let round = 0; round < rounds; round++) perThousand.push((1000 * pass()) / Math.max(1, deltas));
  return {
    deltas,
    cpuMsPer1000: median(perThousand),
    lowest: Math.min(...perThousand),
    highest: Math.max(...perThousand),
  };
}
