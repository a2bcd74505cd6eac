import WebSocket from 'ws';
import { OrderBook } from '../../src/market/order-book';
import { restoreFastStringPrototype } from '../../src/store/fast-string-prototype';
import { bookMessageOf, BookItem } from '../../src/upstream/hub/book-item-codec';
import { ExactJsonHubProtocol, RECORD_SEPARATOR } from '../../src/upstream/hub/exact-json-hub-protocol';
import { MARKET_DATA_HUB_PATH } from '../../src/upstream/hub/hub-url';
import { openWebSocket, UPSTREAM_READ_BATCH_MS } from '../../src/upstream/read-batching';
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
  private windowStart: number | undefined;

  private constructor(private readonly socket: WebSocket) {
    let handshake = true;
    socket.on('message', (data: Buffer, isBinary: boolean) => {
      if (isBinary) return;
      let text = data.toString();
      // The handshake's answer is no hub message.
      if (handshake) {
        handshake = false;
        text = text.slice(text.indexOf(RECORD_SEPARATOR) + 1);
        if (text === '') return;
      }
      this.frames.push(text);
    });
  }

  /**
   * Opens the hub of the exchange at `baseUrl` and every instrument's `Book` stream, its reads batched
   * as the gateway's are by default: what receiving the frames costs at the least.
   */
  static async open(baseUrl: string, instruments: readonly string[]): Promise<HubFrameRecorder> {
    const url = `${baseUrl.replace(/^http/, 'ws')}${MARKET_DATA_HUB_PATH}`;
    const socket = openWebSocket(url, {}, UPSTREAM_READ_BATCH_MS);
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

  /** The window starts: what came so far (the snapshots, the deltas since) only builds the books. */
  start(): void {
    this.windowStart = this.frames.length;
  }

  /** Every frame since the streams opened, and where the window's frames start; the socket is closed. */
  stop(): RecordedFrames {
    this.socket.close();
    const windowStart = this.windowStart ?? this.frames.length;
    this.windowStart = undefined;
    return { frames: this.frames.splice(0), windowStart };
  }
}

export interface RecordedFrames {
  readonly frames: readonly string[];
  /** The frames before this index came before the window. */
  readonly windowStart: number;
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
 * Reads and applies the window's frames `rounds` times, after one untimed pass that warms the code
 * up. Each round builds fresh books from the frames before the window, untimed, so that the window's
 * deltas apply to books as deep as the gateway's. String.prototype is made fast first, as the
 * gateway makes it: this process loads ioredis too (for its Redis server).
 */
export function frameFloor({ frames, windowStart }: RecordedFrames, rounds = 5): FrameFloor {
  restoreFastStringPrototype();
  const protocol = new ExactJsonHubProtocol((error) => {
    throw error;
  });
  let deltas = 0;
  const books = new Map<string, OrderBook>();
  /** Reads and applies frames `from` to `to`; returns the deltas among them. */
  const apply = (from: number, to: number): number => {
    let items = 0;
    for (let index = from; index < to; index++) {
      for (const message of protocol.parseMessages(frames[index], null)) {
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
    return items;
  };
  const pass = (): number => {
    books.clear();
    apply(0, windowStart);
    const started = process.cpuUsage();
    deltas = apply(windowStart, frames.length);
    const used = process.cpuUsage(started);
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
