import { Logger } from '@nestjs/common';
import { RawData, WebSocket } from 'ws';
import { RecordReader } from './hub-framing';
import { HubInvocations } from './hub-invocations';
import { HubMethods } from './hub-method';
import {
  CloseMessage,
  handshakeResponseFrame,
  MessageType,
  parseHandshakeRequest,
  parseHubMessage,
  PING_FRAME,
  serializeHubMessage,
} from './hub-protocol';
import { HubProtocolError } from './hub-protocol-error';

export interface HubConnectionOptions {
  /** A ping goes out when nothing else was sent for this long; a client silent for twice as long is closed. */
  readonly keepAliveMs: number;
  /** The handshake must arrive within this time. */
  readonly handshakeTimeoutMs: number;
  /** True while the server must send nothing at all. */
  readonly isSilenced: () => boolean;
  readonly onProtocolError: (error: HubProtocolError) => void;
}

type ConnectionState = 'handshake' | 'connected' | 'closed';

/** Beyond this much unsent data the client is not keeping up and is dropped. */
const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;

/**
 * One client on a SignalR hub over a websocket: the handshake, the keep-alive in both directions,
 * protocol errors, and the hand-off of invocations to the hub's methods. Timing is driven from
 * outside through `tick`, so that a server with many connections runs a single timer.
 *
 * The messages sent in one turn of the event loop leave in one websocket frame, as ASP.NET Core's
 * transport sends whatever the hub wrote to its pipe since its last send as one message.
 */
export class HubConnection {
  private readonly logger = new Logger(HubConnection.name);
  private readonly reader = new RecordReader();
  private readonly invocations: HubInvocations;
  private state: ConnectionState = 'handshake';
  private readonly openedAt = Date.now();
  private lastSentAt = this.openedAt;
  private lastReceivedAt = this.openedAt;
  private readonly closedListeners: (() => void)[] = [];
  /** Messages sent in this turn, not yet written to the socket. */
  private pending = '';

  constructor(
    private readonly socket: WebSocket,
    methods: HubMethods,
    private readonly options: HubConnectionOptions,
  ) {
    this.invocations = new HubInvocations(methods, (frame) => this.send(frame));
    socket.on('message', (data) => this.receive(data));
    socket.on('close', () => this.dispose());
    // A failing socket is closed by `ws` right after; the close handler does the cleanup.
    socket.on('error', (error) => this.logger.debug(`socket error: ${error.message}`));
  }

  /** True once the handshake succeeded and until the connection closes. */
  get isConnected(): boolean {
    return this.state === 'connected';
  }

  onClosed(listener: () => void): void {
    this.closedListeners.push(listener);
  }

  /**
   * Sends one or more complete messages, in the frame of this turn's messages, unless the server is
   * silenced or the client is gone.
   */
  send(messages: string): void {
    if (!this.mayWrite()) return;
    if (this.socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.logger.debug('client does not keep up with its streams; dropping it');
      this.terminate();
      return;
    }
    if (this.pending === '') queueMicrotask(() => this.flush());
    this.pending += messages;
    this.lastSentAt = Date.now();
  }

  /** Sends `frame` as a websocket frame of its own, after the messages sent before it. */
  sendAlone(frame: string): void {
    this.flush();
    if (this.mayWrite()) this.socket.send(frame);
  }

  /** Closes the connection, telling a client that finished the handshake why with a Close message. */
  close(message?: CloseMessage): void {
    if (this.state === 'closed') return;
    if (message && this.state === 'connected') this.send(serializeHubMessage(message));
    this.flush();
    this.stop();
    this.socket.close(1000);
  }

  /** Drops the connection at once, without a closing handshake and what is not yet sent. */
  terminate(): void {
    this.pending = '';
    this.stop();
    this.socket.terminate();
  }

  /** Closes the websocket as the server goes away; gives up waiting for the client after `graceMs`. */
  shutdown(graceMs: number): Promise<void> {
    if (this.socket.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.socket.terminate(), graceMs);
      this.socket.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
      this.flush();
      this.stop();
      this.socket.close(1001, 'Server shutting down');
    });
  }

  tick(now: number): void {
    if (this.state === 'handshake') {
      if (now - this.openedAt >= this.options.handshakeTimeoutMs) this.terminate();
      return;
    }
    if (this.state !== 'connected') return;
    // Clients ping in reply to what they receive, so a silenced server does not count their quiet:
    // the fault is meant to be noticed by the client, not to end in a server-side close.
    if (this.options.isSilenced()) {
      this.lastReceivedAt = now;
      return;
    }
    if (now - this.lastReceivedAt >= 2 * this.options.keepAliveMs) {
      this.close({
        type: MessageType.Close,
        error: 'Client timeout elapsed without receiving a message from the client.',
        allowReconnect: true,
      });
      return;
    }
    if (now - this.lastSentAt >= this.options.keepAliveMs) this.send(PING_FRAME);
  }

  private receive(data: RawData): void {
    if (this.state === 'closed') return;
    this.lastReceivedAt = Date.now();
    try {
      for (const record of this.reader.push(rawText(data))) {
        if (this.state === 'handshake') this.handshake(record);
        else if (this.state === 'connected') this.dispatch(record);
        else return;
      }
    } catch (error) {
      this.fail(error);
    }
  }

  private handshake(record: string): void {
    const { protocol, version } = parseHandshakeRequest(record);
    if (protocol !== 'json') {
      this.refuseHandshake(`Requested protocol '${protocol}' is not available.`);
      return;
    }
    if (version !== 1) {
      this.refuseHandshake(`The server does not support version ${version} of the '${protocol}' protocol.`);
      return;
    }
    this.state = 'connected';
    this.send(handshakeResponseFrame());
  }

  private refuseHandshake(error: string): void {
    this.send(handshakeResponseFrame(error));
    this.flush();
    this.stop();
    this.socket.close(1000);
  }

  private dispatch(record: string): void {
    const message = parseHubMessage(record);
    switch (message?.type) {
      case MessageType.Invocation:
        this.invocations.invoke(message);
        break;
      case MessageType.StreamInvocation:
        this.invocations.stream(message);
        break;
      case MessageType.CancelInvocation:
        this.invocations.cancel(message);
        break;
      case MessageType.Close:
        this.close();
        break;
      default:
        // Pings only keep the connection alive; results and stream items of client-side calls and
        // unknown types have nothing to answer here.
        break;
    }
  }

  private fail(error: unknown): void {
    if (!(error instanceof HubProtocolError)) {
      this.logger.error(`hub connection failed: ${(error as Error).stack ?? String(error)}`);
      this.close({ type: MessageType.Close, error: 'Connection closed with an error.' });
      return;
    }
    this.options.onProtocolError(error);
    if (this.state === 'handshake') {
      this.refuseHandshake(
        `An unexpected error occurred during connection handshake. InvalidDataException: ${error.message}`,
      );
      return;
    }
    this.close({
      type: MessageType.Close,
      error: `Connection closed with an error. InvalidDataException: ${error.message}`,
    });
  }

  private mayWrite(): boolean {
    return this.state !== 'closed' && this.socket.readyState === WebSocket.OPEN && !this.options.isSilenced();
  }

  private flush(): void {
    const frame = this.pending;
    if (frame === '') return;
    this.pending = '';
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(frame);
  }

  /** Stops reading and streaming; the socket is closed by the caller. */
  private stop(): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.invocations.stopAll();
  }

  private dispose(): void {
    this.stop();
    for (const listener of this.closedListeners.splice(0)) listener();
  }
}

function rawText(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}
