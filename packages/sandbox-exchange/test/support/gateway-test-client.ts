import { WebSocket } from 'ws';
import { ExactJson, parseExactJson } from '../../src/wire/exact-json';

/** A frame as the client received it; `payload` is `o` parsed with numbers as their exact text. */
export interface ReceivedFrame {
  readonly m: number;
  readonly i: number;
  readonly n: string;
  /** `o` as sent: usually JSON text, plain text in some error frames. */
  readonly o: string;
  readonly payload: ExactJson | undefined;
  readonly raw: string;
}

export interface CloseEvent {
  readonly code: number;
  readonly reason: string;
}

const DEFAULT_TIMEOUT_MS = 5_000;

/**
 * A plain websocket client of the gateway for tests: numbers its requests 2, 4, 6..., keeps every
 * frame it receives (frames that are not JSON in `unparsable`), and waits for replies and events.
 */
export class GatewayTestClient {
  readonly frames: ReceivedFrame[] = [];
  readonly unparsable: string[] = [];
  readonly closed: Promise<CloseEvent>;
  private sequence = 0;
  private readonly waiters = new Set<() => void>();

  private constructor(readonly socket: WebSocket) {
    this.closed = new Promise((resolve) => {
      socket.on('close', (code, reason) => {
        resolve({ code, reason: reason.toString() });
        this.wake();
      });
    });
    socket.on('message', (data) => {
      const raw = data.toString();
      try {
        const frame = JSON.parse(raw) as { m: number; i: number; n: string; o: string };
        let payload: ExactJson | undefined;
        try {
          payload = parseExactJson(frame.o);
        } catch {
          payload = undefined;
        }
        this.frames.push({ m: frame.m, i: frame.i, n: frame.n, o: frame.o, payload, raw });
      } catch {
        this.unparsable.push(raw);
      }
      this.wake();
    });
  }

  static async connect(url: string): Promise<GatewayTestClient> {
    const socket = new WebSocket(url);
    const client = new GatewayTestClient(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
      socket.once('unexpected-response', (_request, response) =>
        reject(new Error(`upgrade refused with ${response.statusCode}`)),
      );
    });
    socket.on('error', () => undefined);
    return client;
  }

  /**
   * Logs in over REST and connects with the session token in the URL, as a client of the exchange
   * does; `token` is what `WebAuthenticateUser` takes next.
   */
  static async logIn(
    sandbox: { readonly authUrl: string; readonly wsUrl: string },
    email: string,
    password: string,
  ): Promise<{ client: GatewayTestClient; token: string }> {
    const response = await fetch(`${sandbox.authUrl}/api/v1/trade/auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email, password }).toString(),
    });
    const { data } = (await response.json()) as { data: { token: string; session_token: string } };
    const client = await GatewayTestClient.connect(
      `${sandbox.wsUrl}/WSGateway/?session_token=${encodeURIComponent(data.session_token)}`,
    );
    return { client, token: data.token };
  }

  /** The HTTP status with which the gateway refuses an upgrade, or 101 if it accepts it. */
  static async upgradeStatus(url: string): Promise<number> {
    const socket = new WebSocket(url);
    return new Promise<number>((resolve, reject) => {
      socket.once('open', () => {
        socket.close();
        resolve(101);
      });
      socket.once('unexpected-response', (_request, response) => {
        resolve(response.statusCode ?? 0);
        socket.terminate();
      });
      socket.once('error', reject);
    });
  }

  get isOpen(): boolean {
    return this.socket.readyState === WebSocket.OPEN;
  }

  /** Sends a request and waits for the reply or error frame that echoes its number. */
  async call(name: string, payload: unknown = {}, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<ReceivedFrame> {
    const i = this.request(name, payload);
    return this.waitFor((frame) => frame.i === i && (frame.m === 1 || frame.m === 5), timeoutMs);
  }

  /** Sends a request without waiting; returns its number. */
  request(name: string, payload: unknown = {}): number {
    this.sequence += 2;
    this.send(JSON.stringify({ m: 0, i: this.sequence, n: name, o: JSON.stringify(payload) }));
    return this.sequence;
  }

  send(text: string): void {
    this.socket.send(text);
  }

  events(name: string): ReceivedFrame[] {
    return this.frames.filter((frame) => frame.m === 3 && frame.n === name);
  }

  /** The first received frame (from `from` on) that matches. */
  async waitFor(
    matches: (frame: ReceivedFrame) => boolean,
    timeoutMs = DEFAULT_TIMEOUT_MS,
    from = 0,
  ): Promise<ReceivedFrame> {
    let found: ReceivedFrame | undefined;
    await this.until(() => (found = this.frames.slice(from).find(matches)) !== undefined, timeoutMs);
    return found!;
  }

  /** Resolves when `condition` holds, checked after every frame and every 20 ms. */
  async until(condition: () => boolean, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.waiters.delete(wake);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(wake, 20);
        this.waiters.add(wake);
      });
    }
  }

  async close(): Promise<void> {
    if (this.socket.readyState === WebSocket.CLOSED) return;
    this.socket.terminate();
    await this.closed;
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}

/** Resolves when `condition` holds, polling every 20 ms. */
export async function eventually(condition: () => boolean, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
