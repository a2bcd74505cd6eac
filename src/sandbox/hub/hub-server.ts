import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import { AppConfig } from '../../config/app-config';
import { UpgradeRouter } from '../http/upgrade-router';
import { SandboxExchange } from '../simulation/sandbox-exchange';
import { HubConnection } from './hub-connection';
import { HubNegotiation } from './hub-negotiation';
import { CloseMessage } from './hub-protocol';
import { HubProtocolError } from './hub-protocol-error';
import { MarketDataHub } from './market-data-hub';

export const HUB_PATH = '/marketdata/info';

const HANDSHAKE_TIMEOUT_MS = 15_000;
/** Largest websocket frame accepted; a frame may batch many messages of at most 32 KiB each. */
const MAX_FRAME_BYTES = 1024 * 1024;
const SHUTDOWN_GRACE_MS = 1000;

/**
 * The websocket side of the market-data hub: accepts upgrades at the hub's path, with a negotiated
 * token or without one (skipNegotiation), and keeps every connection's clock ticking.
 */
@Injectable()
export class HubServer implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(HubServer.name);
  private readonly sockets = new WebSocketServer({
    noServer: true,
    perMessageDeflate: false,
    maxPayload: MAX_FRAME_BYTES,
  });
  private readonly connections = new Set<HubConnection>();
  private ticker?: NodeJS.Timeout;
  private closing = false;
  private protocolErrors = 0;

  constructor(
    @Inject(SandboxExchange) private readonly exchange: SandboxExchange,
    @Inject(UpgradeRouter) private readonly upgrades: UpgradeRouter,
    @Inject(AppConfig) private readonly config: AppConfig,
    @Inject(HubNegotiation) private readonly negotiation: HubNegotiation,
    @Inject(MarketDataHub) private readonly hub: MarketDataHub,
  ) {}

  onModuleInit(): void {
    this.upgrades.register(HUB_PATH, (request, socket, head) => this.upgrade(request, socket, head));
  }

  async onModuleDestroy(): Promise<void> {
    this.closing = true;
    await Promise.all([...this.connections].map((connection) => connection.shutdown(SHUTDOWN_GRACE_MS)));
    this.connections.clear();
    this.stopTicker();
    this.sockets.close();
  }

  /** True while new connections are refused (the `drop-connections` fault, or shutting down). */
  get refusing(): boolean {
    return this.closing || this.exchange.faults.isOn('drop-connections');
  }

  get connectionCount(): number {
    return this.connections.size;
  }

  /** Messages that broke the protocol since the start; each closed its connection. */
  get protocolErrorCount(): number {
    return this.protocolErrors;
  }

  /** Connections that finished their handshake. */
  connected(): HubConnection[] {
    return [...this.connections].filter((connection) => connection.isConnected);
  }

  terminateAll(): void {
    for (const connection of [...this.connections]) connection.terminate();
  }

  closeAll(message: CloseMessage): void {
    for (const connection of [...this.connections]) connection.close(message);
  }

  private upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => socket.destroy());
    if (this.refusing) {
      refuse(socket, 503, 'Service Unavailable', 'System is currently overloaded');
      return;
    }
    const token = new URL(request.url ?? '/', 'http://sandbox').searchParams.get('id');
    if (token !== null) {
      const claim = this.negotiation.claim(token);
      if (claim === 'unknown') {
        refuse(socket, 404, 'Not Found', 'No Connection with that ID');
        return;
      }
      if (claim === 'in-use') {
        refuse(socket, 409, 'Conflict', `Connection ID '${token}' is already in use.`);
        return;
      }
      socket.once('close', () => this.negotiation.release(token));
    }
    this.sockets.handleUpgrade(request, socket, head, (websocket) => this.accept(websocket));
  }

  private accept(socket: WebSocket): void {
    if (this.refusing) {
      socket.terminate();
      return;
    }
    const connection = new HubConnection(socket, this.hub.methods, {
      keepAliveMs: this.config.SANDBOX_KEEPALIVE_MS,
      handshakeTimeoutMs: HANDSHAKE_TIMEOUT_MS,
      isSilenced: () => this.exchange.faults.isOn('silence'),
      onProtocolError: (error) => this.countProtocolError(error),
    });
    this.connections.add(connection);
    connection.onClosed(() => {
      this.connections.delete(connection);
      if (this.connections.size === 0) this.stopTicker();
    });
    this.startTicker();
  }

  private countProtocolError(error: HubProtocolError): void {
    this.protocolErrors += 1;
    this.logger.debug(`protocol error #${this.protocolErrors}, closing the connection: ${error.message}`);
  }

  private startTicker(): void {
    if (this.ticker) return;
    const interval = Math.max(10, Math.min(1000, Math.floor(this.config.SANDBOX_KEEPALIVE_MS / 5)));
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

function refuse(socket: Duplex, status: number, reason: string, body: string): void {
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}
