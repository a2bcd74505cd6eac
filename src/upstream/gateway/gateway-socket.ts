import { RawData, WebSocket } from 'ws';
import { ExactJson } from '../exact-json';
import {
  GatewayCallError,
  GatewayConnectError,
  GatewayDisconnectedError,
  GatewayError,
  GatewayTimeoutError,
} from './gateway-errors';
import { decodeFrame, DecodeFailure, encodeRequest, FrameType, IncomingFrame } from './gateway-frame';
import { GatewayPayloadError } from './gateway-payload-error';
import { openWebSocket } from '../read-batching';
import { UpstreamTap } from '../upstream-tap';
import { networkCause } from '../../logging/network-cause';

/** What the socket reports to its owner, synchronously and in the order frames arrive. */
export interface GatewaySocketHooks {
  onEvent(frame: IncomingFrame, receivedAt: number): void;
  /** A frame that could not be read; it was skipped. */
  onMalformed(kind: DecodeFailure['kind'], reason: string): void;
}

export interface GatewaySocketOptions {
  readonly handshakeTimeoutMs: number;
  readonly userAgent: string;
  /** See `batchReads`; 0 reads as frames arrive. */
  readonly readBatchMs: number;
  /** The URL as messages show it: without the session token of the query. */
  readonly shownUrl: string;
  readonly now: () => number;
  readonly hooks: GatewaySocketHooks;
  /** Hears every frame received but those in UNRECORDED, as its text (a recorder). */
  readonly tap?: UpstreamTap;
}

/** Not handed to the tap: Ping replies are noise, and the login's reply may carry the session. */
const UNRECORDED: ReadonlySet<string> = new Set(['Ping', 'WebAuthenticateUser']);

export interface RequestOptions {
  readonly timeoutMs: number;
  /**
   * Called with the reply's payload as soon as the reply frame is read, before any later frame is
   * handled (a promise continuation would run after the events that follow the reply in the same
   * chunk). Not called for a failed result.
   */
  readonly onReply?: (payload: ExactJson, receivedAt: number) => void;
}

export interface KeepAliveOptions {
  readonly intervalMs: number;
  readonly timeoutMs: number;
  onPing(): void;
  onPong(): void;
  /** No answer to a Ping in time; the socket is terminated right after. */
  onTimeout(): void;
}

export interface SocketClosed {
  readonly code: number;
  /** Why it closed, for logs: the server's reason, the local reason, or the socket error. */
  readonly reason: string;
}

interface Pending {
  readonly name: string;
  readonly timer: NodeJS.Timeout;
  readonly onReply?: RequestOptions['onReply'];
  resolve(payload: ExactJson): void;
  reject(error: Error): void;
}

/**
 * One websocket to the gateway: numbers requests 2, 4, 6... (even, unique on the socket), settles them
 * by the `i` their reply or error echoes, hands events to its owner, and keeps the socket alive with
 * Pings (the gateway never pings). Unreadable frames are reported and skipped; the socket stays up.
 * Every pending call is rejected when the socket closes.
 */
export class GatewaySocket {
  /** Resolves when the socket is open; rejects with a GatewayConnectError when it cannot be opened. */
  readonly opened: Promise<void>;
  /** Resolves once the socket has closed, whatever the cause; never rejects. */
  readonly closed: Promise<SocketClosed>;
  private readonly socket: WebSocket;
  private readonly pending = new Map<number, Pending>();
  private sequence = 0;
  private keepAlive?: NodeJS.Timeout;
  private pinging = false;
  private localReason?: string;
  private lastError?: string;
  private lastSocketError?: Error;

  constructor(
    url: string,
    private readonly options: GatewaySocketOptions,
  ) {
    this.socket = openWebSocket(
      url,
      { handshakeTimeout: options.handshakeTimeoutMs, headers: { 'User-Agent': options.userAgent } },
      options.readBatchMs,
    );
    const socket = this.socket;
    this.opened = new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('unexpected-response', (_request, response) => {
        const status = response.statusCode ?? 0;
        response.resume();
        reject(new GatewayConnectError(`the websocket upgrade was refused with HTTP ${status}`, status));
        socket.terminate();
      });
      socket.once('close', () => {
        const cause = this.localReason === undefined ? networkCause(this.lastSocketError) : undefined;
        const message = cause
          ? `unreachable at ${options.shownUrl}: ${cause}`
          : `the connection failed: ${this.localReason ?? this.lastError ?? 'closed'}`;
        reject(new GatewayConnectError(message));
      });
    });
    // A rejection nobody awaits (a socket stopped while opening) must not surface as unhandled.
    this.opened.catch(() => undefined);
    this.closed = new Promise((resolve) => {
      socket.on('close', (code, reason) => {
        clearInterval(this.keepAlive);
        const why = this.localReason ?? (reason.length > 0 ? reason.toString() : this.lastError) ?? 'closed';
        this.rejectAll(new GatewayDisconnectedError(`the gateway connection closed (${code}: ${why})`));
        resolve({ code, reason: why });
      });
    });
    socket.on('error', (error) => {
      this.lastError = error.message;
      this.lastSocketError = error;
    });
    socket.on('message', (data) => this.receive(text(data)));
  }

  get isOpen(): boolean {
    return this.socket.readyState === WebSocket.OPEN;
  }

  /**
   * Sends `name` with `payload` (encoded as the JSON string `o`) and resolves with the reply's payload.
   * Rejects with GatewayCallError on an error frame or a failed result, GatewayTimeoutError when no
   * answer comes in time, GatewayDisconnectedError when the socket is or goes down first.
   */
  request(name: string, payload: unknown, options: RequestOptions): Promise<ExactJson> {
    if (!this.isOpen) return Promise.reject(new GatewayDisconnectedError(`${name}: not connected`));
    this.sequence += 2;
    const sequence = this.sequence;
    return new Promise<ExactJson>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(sequence);
        reject(new GatewayTimeoutError(`${name}: no answer within ${options.timeoutMs} ms`));
      }, options.timeoutMs);
      this.pending.set(sequence, { name, timer, onReply: options.onReply, resolve, reject });
      this.socket.send(encodeRequest(sequence, name, payload), (error) => {
        if (error)
          this.settle(sequence, (pending) =>
            pending.reject(new GatewayDisconnectedError(`${name}: ${error.message}`)),
          );
      });
    });
  }

  /** Sends a Ping every `intervalMs` (one at a time); no answer within `timeoutMs` terminates the socket. */
  startKeepAlive(options: KeepAliveOptions): void {
    clearInterval(this.keepAlive);
    this.keepAlive = setInterval(() => {
      if (this.pinging || !this.isOpen) return;
      this.pinging = true;
      options.onPing();
      this.request('Ping', {}, { timeoutMs: options.timeoutMs }).then(
        () => {
          this.pinging = false;
          options.onPong();
        },
        (error: unknown) => {
          this.pinging = false;
          if (error instanceof GatewayTimeoutError) {
            options.onTimeout();
            this.terminate(`no answer to Ping within ${options.timeoutMs} ms`);
          }
        },
      );
    }, options.intervalMs);
  }

  /** Cuts the connection at once; `reason` is what `closed` and the pending calls report. */
  terminate(reason: string): void {
    this.localReason ??= reason;
    this.socket.terminate();
  }

  /** Closes with the closing handshake, cutting the connection if it takes longer than `graceMs`. */
  async close(reason: string, graceMs: number): Promise<void> {
    this.localReason ??= reason;
    if (this.socket.readyState === WebSocket.CONNECTING) this.socket.terminate();
    else if (this.socket.readyState === WebSocket.OPEN) this.socket.close(1000, reason);
    const cutOff = setTimeout(() => this.socket.terminate(), graceMs);
    await this.closed;
    clearTimeout(cutOff);
  }

  private receive(text: string): void {
    const receivedAt = this.options.now();
    const decoded = decodeFrame(text);
    const tap = this.options.tap;
    if (tap?.listening && !(decoded.ok && UNRECORDED.has(decoded.frame.name))) tap.frame(text, receivedAt);
    if (!decoded.ok) {
      this.options.hooks.onMalformed(decoded.kind, decoded.reason);
      const answer = decoded.answer;
      if (answer)
        this.settle(answer.sequence, (pending) =>
          pending.reject(new GatewayPayloadError(`${pending.name} reply`, [decoded.reason])),
        );
      return;
    }
    const frame = decoded.frame;
    if (frame.type === FrameType.Event) {
      this.options.hooks.onEvent(frame, receivedAt);
      return;
    }
    this.settle(frame.sequence, (pending) => {
      const failure =
        frame.type === FrameType.Error
          ? GatewayCallError.of(pending.name, frame.payload)
          : GatewayCallError.fromResult(pending.name, frame.payload);
      if (failure) {
        pending.reject(failure);
        return;
      }
      try {
        pending.onReply?.(frame.payload, receivedAt);
      } catch (error) {
        pending.reject(error instanceof Error ? error : new GatewayError(String(error)));
        return;
      }
      pending.resolve(frame.payload);
    });
  }

  /** Runs `action` on the pending call `sequence`, if there still is one (a late answer is dropped). */
  private settle(sequence: number, action: (pending: Pending) => void): void {
    const pending = this.pending.get(sequence);
    if (!pending) return;
    this.pending.delete(sequence);
    clearTimeout(pending.timer);
    action(pending);
  }

  private rejectAll(error: Error): void {
    for (const sequence of [...this.pending.keys()])
      this.settle(sequence, (pending) => pending.reject(error));
  }
}

function text(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(data).toString('utf8');
}
