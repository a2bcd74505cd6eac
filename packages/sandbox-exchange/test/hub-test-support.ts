import {
  HttpTransportType,
  HubConnection,
  HubConnectionBuilder,
  IStreamResult,
  ISubscription,
  LogLevel,
} from '@microsoft/signalr';
import { WebSocket } from 'ws';
import { Side } from '../src/engine/side';
import { formatUnits } from '../src/engine/units';
import { MarketSimulator } from '../src/simulation/market-simulator';

export const RS = '\x1e';

export interface HubClientOptions {
  /** Ask `/negotiate` first instead of opening the websocket directly. */
  readonly negotiate?: boolean;
  readonly keepAliveMs?: number;
  readonly serverTimeoutMs?: number;
  /** Delays of `withAutomaticReconnect`; none means no automatic reconnect. */
  readonly reconnectDelays?: number[];
}

/** The official client, as the gateway and the exchange's own samples build it. */
export function hubClient(baseUrl: string, options: HubClientOptions = {}): HubConnection {
  let builder = new HubConnectionBuilder()
    .withUrl(
      `${baseUrl}/marketdata/info`,
      options.negotiate
        ? { transport: HttpTransportType.WebSockets }
        : { skipNegotiation: true, transport: HttpTransportType.WebSockets },
    )
    .configureLogging(LogLevel.None);
  if (options.reconnectDelays) builder = builder.withAutomaticReconnect(options.reconnectDelays);
  const connection = builder.build();
  if (options.keepAliveMs !== undefined) connection.keepAliveIntervalInMilliseconds = options.keepAliveMs;
  if (options.serverTimeoutMs !== undefined) connection.serverTimeoutInMilliseconds = options.serverTimeoutMs;
  return connection;
}

export interface BookItem {
  instrument: string;
  bids: { amount: number; price: number }[];
  asks: { amount: number; price: number }[];
  version: number;
  askTotalAmount: number;
  bidTotalAmount: number;
  snapshot: boolean;
}

/** Price to amount, per side, as a client keeps a book it rebuilds from the stream. */
export interface PlainBook {
  bids: Map<number, number>;
  asks: Map<number, number>;
}

/**
 * A client-side copy of one instrument's book kept from a `Book` stream: the snapshot replaces
 * it, each delta sets its levels (amount 0 deletes).
 */
export class BookMirror {
  readonly items: BookItem[] = [];
  readonly book: PlainBook = { bids: new Map(), asks: new Map() };
  version = 0;
  completed = false;
  error?: Error;
  private subscription?: ISubscription<BookItem>;

  follow(stream: IStreamResult<BookItem>): this {
    this.completed = false;
    this.error = undefined;
    this.subscription = stream.subscribe({
      next: (item) => this.apply(item),
      complete: () => {
        this.completed = true;
      },
      error: (error: unknown) => {
        this.error = error as Error;
      },
    });
    return this;
  }

  dispose(): void {
    this.subscription?.dispose();
  }

  get snapshots(): BookItem[] {
    return this.items.filter((item) => item.snapshot);
  }

  private apply(item: BookItem): void {
    this.items.push(item);
    if (item.snapshot) {
      this.book.bids.clear();
      this.book.asks.clear();
    }
    for (const [levels, side] of [
      [item.bids, this.book.bids],
      [item.asks, this.book.asks],
    ] as const) {
      for (const { price, amount } of levels) {
        if (amount === 0) side.delete(price);
        else side.set(price, amount);
      }
    }
    this.version = item.version;
  }
}

/** The in-process market's book in the form a client rebuilds it (numbers as JSON gives them). */
export function plainBook(market: MarketSimulator): PlainBook {
  const { priceScale, amountScale } = market.spec;
  const side = (which: Side) =>
    new Map(
      [...market.engine.levels(which)].map(
        (level) =>
          [
            Number(formatUnits(level.price, priceScale)),
            Number(formatUnits(level.amount, amountScale)),
          ] as const,
      ),
    );
  return { bids: side(Side.Buy), asks: side(Side.Sell) };
}

export function sorted(side: Map<number, number>): [number, number][] {
  return [...side.entries()].sort(([a], [b]) => a - b);
}

/** Polls until `condition` holds; fails with `description` after `timeoutMs`. */
export async function waitFor(
  condition: () => boolean,
  description: string,
  timeoutMs = 5000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${description}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A bare websocket on the hub that speaks the protocol by hand, to send what the official client never would. */
export class RawHubClient {
  readonly messages: string[] = [];
  readonly frames: string[] = [];
  closeCode?: number;
  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data: Buffer) => {
      const text = data.toString('utf8');
      this.frames.push(text);
      this.messages.push(...text.split(RS).slice(0, -1));
    });
    socket.on('close', (code) => {
      this.closeCode = code;
    });
  }

  static async open(url: string): Promise<RawHubClient> {
    const socket = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return new RawHubClient(socket);
  }

  /** Opens the hub and completes the JSON handshake. */
  static async connect(url: string): Promise<RawHubClient> {
    const client = await RawHubClient.open(url);
    client.send(`{"protocol":"json","version":1}${RS}`);
    await client.waitForMessage((message) => message === '{}', 'the handshake response');
    return client;
  }

  get closed(): boolean {
    return this.closeCode !== undefined;
  }

  send(text: string): void {
    this.socket.send(text);
  }

  /** Messages parsed as JSON. */
  parsed(): Record<string, unknown>[] {
    return this.messages.map((message) => JSON.parse(message) as Record<string, unknown>);
  }

  async waitForMessage(
    match: (message: string) => boolean,
    description: string,
    timeoutMs = 5000,
  ): Promise<string> {
    await waitFor(() => this.messages.some(match), description, timeoutMs);
    return this.messages.find(match) as string;
  }

  async waitForClose(timeoutMs = 5000): Promise<number> {
    await waitFor(() => this.closed, 'the socket to close', timeoutMs);
    return this.closeCode as number;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.socket.close();
    await this.waitForClose().catch(() => this.socket.terminate());
  }
}

/** Status of a websocket upgrade on the hub (101 when it was accepted). */
export function upgradeStatus(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.once('open', () => {
      socket.terminate();
      resolve(101);
    });
    socket.once('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0);
      response.resume();
      socket.terminate();
    });
    // After an answer (or terminate()) more errors may follow; the first outcome counts.
    socket.on('error', reject);
  });
}
