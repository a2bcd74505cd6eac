import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { HubConnection } from './hub-connection';
import { HubMethods } from './hub-method';
import { HubNegotiation } from './hub-negotiation';
import { HubProtocolError } from './hub-protocol-error';

const HANDSHAKE_TIMEOUT_MS = 15_000;
const SHUTDOWN_GRACE_MS = 1000;

export interface HubConnectionsOptions {
  /** Largest websocket frame accepted. */
  readonly maxFrameBytes: number;
  readonly keepAliveMs: number;
  /** True while the server must send nothing at all (the `silence` fault). */
  readonly isSilenced: () => boolean;
  /** True while new connections are refused (the `drop-connections` fault). */
  readonly isRefusing: () => boolean;
  readonly onProtocolError?: (error: HubProtocolError) => void;
}

/** Answers an upgrade request that cannot be taken; each hub writes its own body. */
export type RefuseUpgrade = (status: number, code: string, message: string) => void;

/**
 * The SignalR connections of one hub, whoever it admits: the negotiated token of an upgrade,
 * the websocket upgrade itself, the open connections and their clock (handshake timeout, keepalive),
 * and their closing at shutdown.
 */
export class HubConnections {
  private readonly sockets: WebSocketServer;
  private readonly connections = new Set<HubConnection>();
  private ticker?: NodeJS.Timeout;
  private closing = false;

  constructor(private readonly options: HubConnectionsOptions) {
    this.sockets = new WebSocketServer({
      noServer: true,
      perMessageDeflate: false,
      maxPayload: options.maxFrameBytes,
    });
  }

  /** True while new connections are refused (the fault, or shutting down). */
  get refusing(): boolean {
    return this.closing || this.options.isRefusing();
  }

  get size(): number {
    return this.connections.size;
  }

  /** Connections that finished their handshake. */
  connected(): HubConnection[] {
    return [...this.connections].filter((connection) => connection.isConnected);
  }

  /** Every connection, for closing or terminating them. */
  all(): HubConnection[] {
    return [...this.connections];
  }

  /**
   * Claims the request's negotiated token (`?id=`), if it has one, and frees it when the socket
   * closes. False, with the upgrade refused, when the token is unknown or already in use.
   */
  claimToken(
    request: IncomingMessage,
    socket: Duplex,
    negotiation: HubNegotiation,
    refuse: RefuseUpgrade,
  ): boolean {
    const token = new URL(request.url ?? '/', 'http://sandbox').searchParams.get('id');
    if (token === null) return true;
    const claim = negotiation.claim(token);
    if (claim === 'unknown') {
      refuse(404, 'not_found', 'No Connection with that ID');
      return false;
    }
    if (claim === 'in-use') {
      refuse(409, 'conflict', `Connection ID '${token}' is already in use.`);
      return false;
    }
    socket.once('close', () => negotiation.release(token));
    return true;
  }

  /** Upgrades the request and serves `methods` on the new connection, unless refusing by then. */
  accept(request: IncomingMessage, socket: Duplex, head: Buffer, methods: HubMethods): void {
    this.sockets.handleUpgrade(request, socket, head, (websocket) => {
      if (this.refusing) {
        websocket.terminate();
        return;
      }
      const connection = new HubConnection(websocket, methods, {
        keepAliveMs: this.options.keepAliveMs,
        handshakeTimeoutMs: HANDSHAKE_TIMEOUT_MS,
        isSilenced: this.options.isSilenced,
        onProtocolError: this.options.onProtocolError ?? (() => undefined),
      });
      this.connections.add(connection);
      connection.onClosed(() => {
        this.connections.delete(connection);
        if (this.connections.size === 0) this.stopTicker();
      });
      this.startTicker();
    });
  }

  async shutdown(): Promise<void> {
    this.closing = true;
    await Promise.all([...this.connections].map((connection) => connection.shutdown(SHUTDOWN_GRACE_MS)));
    this.connections.clear();
    this.stopTicker();
    this.sockets.close();
  }

  private startTicker(): void {
    if (this.ticker) return;
    const interval = Math.max(10, Math.min(1000, Math.floor(this.options.keepAliveMs / 5)));
    this.ticker = setInterval(() => {
      const now = Date.now();
      for (const connection of [...this.connections]) connection.tick(now);
    }, interval);
  }

  private stopTicker(): void {
    clearInterval(this.ticker);
    this.ticker = undefined;
  }
}
