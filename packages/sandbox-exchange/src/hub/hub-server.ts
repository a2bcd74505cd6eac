import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { SandboxTuning } from '../config/sandbox-tuning';
import { UpgradeRouter } from '../http/upgrade-router';
import { SandboxExchange } from '../simulation/sandbox-exchange';
import { HubConnection } from './hub-connection';
import { HubConnections } from './hub-connections';
import { HubNegotiation } from './hub-negotiation';
import { CloseMessage } from './hub-protocol';
import { HubProtocolError } from './hub-protocol-error';
import { MarketDataHub } from './market-data-hub';

export const HUB_PATH = '/marketdata/info';

/** Largest websocket frame accepted; a frame may batch many messages of at most 32 KiB each. */
const MAX_FRAME_BYTES = 1024 * 1024;

/**
 * The websocket side of the market-data hub: accepts upgrades at the hub's path, with a negotiated
 * token or without one (skipNegotiation).
 */
@Injectable()
export class HubServer implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(HubServer.name);
  private readonly connections: HubConnections;
  private protocolErrors = 0;

  constructor(
    @Inject(SandboxExchange) exchange: SandboxExchange,
    @Inject(UpgradeRouter) private readonly upgrades: UpgradeRouter,
    @Inject(SandboxTuning) tuning: SandboxTuning,
    @Inject(HubNegotiation) private readonly negotiation: HubNegotiation,
    @Inject(MarketDataHub) private readonly hub: MarketDataHub,
  ) {
    this.connections = new HubConnections({
      maxFrameBytes: MAX_FRAME_BYTES,
      keepAliveMs: tuning.hubKeepAliveMs,
      isSilenced: () => exchange.faults.isOn('silence'),
      isRefusing: () => exchange.faults.isOn('drop-connections'),
      onProtocolError: (error) => this.countProtocolError(error),
    });
  }

  onModuleInit(): void {
    this.upgrades.register(HUB_PATH, (request, socket, head) => this.upgrade(request, socket, head));
  }

  onModuleDestroy(): Promise<void> {
    return this.connections.shutdown();
  }

  /** True while new connections are refused (the `drop-connections` fault, or shutting down). */
  get refusing(): boolean {
    return this.connections.refusing;
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
    return this.connections.connected();
  }

  terminateAll(): void {
    for (const connection of this.connections.all()) connection.terminate();
  }

  closeAll(message: CloseMessage): void {
    for (const connection of this.connections.all()) connection.close(message);
  }

  private upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => socket.destroy());
    const refuse = (status: number, _code: string, message: string) => refuseAsText(socket, status, message);
    if (this.refusing) {
      refuse(503, 'unavailable', 'System is currently overloaded');
      return;
    }
    if (!this.connections.claimToken(request, socket, this.negotiation, refuse)) return;
    this.connections.accept(request, socket, head, this.hub.methods);
  }

  private countProtocolError(error: HubProtocolError): void {
    this.protocolErrors += 1;
    this.logger.debug(`protocol error #${this.protocolErrors}, closing the connection: ${error.message}`);
  }
}

/** The plain-text refusal of the market-data hub, as the exchange's SignalR server answers. */
function refuseAsText(socket: Duplex, status: number, body: string): void {
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}
