import { Inject, Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import { AppConfig } from '../../config/app-config';
import { FaultChange } from '../faults/fault-switchboard';
import { errorBody } from '../http/error-body';
import { UpgradeRouter } from '../http/upgrade-router';
import { SandboxExchange } from '../simulation/sandbox-exchange';
import { SandboxUser } from '../users/sandbox-user';
import { SandboxUsers } from '../users/sandbox-users';
import { AccountHub } from './account-hub';
import { AccountHubAdmission, admitAccountHubRequest } from './account-hub-auth';
import { HubConnection } from './hub-connection';
import { HubNegotiation, NegotiateResponse } from './hub-negotiation';

/** The private hub's path (spec 4.3) and the longer one of the exchange's documentation. */
export const ACCOUNT_HUB_PATHS = ['/ws/account', '/frontoffice/ws/account'] as const;

const HANDSHAKE_TIMEOUT_MS = 15_000;
const MAX_FRAME_BYTES = 64 * 1024;
const SHUTDOWN_GRACE_MS = 1000;

/**
 * The websocket side of the private account hub: the same SignalR connections as the market-data
 * hub, admitted only with valid `Key`, `Sign` and `Payload` headers (on the negotiate request and
 * again on the upgrade), each serving the streams of its user's account.
 */
@Injectable()
export class AccountHubServer implements OnModuleInit, OnModuleDestroy {
  private readonly sockets = new WebSocketServer({
    noServer: true,
    perMessageDeflate: false,
    maxPayload: MAX_FRAME_BYTES,
  });
  private readonly negotiation = new HubNegotiation();
  private readonly connections = new Set<HubConnection>();
  private ticker?: NodeJS.Timeout;
  private closing = false;
  private unsubscribe?: () => void;

  constructor(
    @Inject(SandboxExchange) private readonly exchange: SandboxExchange,
    @Inject(UpgradeRouter) private readonly upgrades: UpgradeRouter,
    @Inject(AppConfig) private readonly config: AppConfig,
    @Inject(SandboxUsers) private readonly users: SandboxUsers,
    @Inject(AccountHub) private readonly hub: AccountHub,
  ) {}

  onModuleInit(): void {
    for (const path of ACCOUNT_HUB_PATHS)
      this.upgrades.register(path, (request, socket, head) => this.upgrade(request, socket, head));
    this.unsubscribe = this.exchange.faults.changes.subscribe((change) => this.onFault(change));
  }

  async onModuleDestroy(): Promise<void> {
    this.closing = true;
    this.unsubscribe?.();
    await Promise.all([...this.connections].map((connection) => connection.shutdown(SHUTDOWN_GRACE_MS)));
    this.connections.clear();
    this.stopTicker();
    this.sockets.close();
  }

  get refusing(): boolean {
    return this.closing || this.exchange.faults.isOn('drop-connections');
  }

  get connectionCount(): number {
    return this.connections.size;
  }

  admit(headers: IncomingHttpHeaders): AccountHubAdmission {
    return admitAccountHubRequest(headers, this.users, this.exchange.clock.now());
  }

  negotiate(requestedVersion: number): NegotiateResponse {
    return this.negotiation.negotiate(requestedVersion);
  }

  private upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => socket.destroy());
    if (this.refusing) {
      refuse(socket, 503, '', 'System is currently overloaded');
      return;
    }
    const admission = this.admit(request.headers);
    if (!admission.ok) {
      refuse(socket, 401, admission.code, admission.message);
      return;
    }
    const token = new URL(request.url ?? '/', 'http://sandbox').searchParams.get('id');
    if (token !== null) {
      const claim = this.negotiation.claim(token);
      if (claim === 'unknown') {
        refuse(socket, 404, 'not_found', 'No Connection with that ID');
        return;
      }
      if (claim === 'in-use') {
        refuse(socket, 409, 'conflict', `Connection ID '${token}' is already in use.`);
        return;
      }
      socket.once('close', () => this.negotiation.release(token));
    }
    this.sockets.handleUpgrade(request, socket, head, (websocket) => this.accept(websocket, admission.user));
  }

  private accept(socket: WebSocket, user: SandboxUser): void {
    if (this.refusing) {
      socket.terminate();
      return;
    }
    const connection = new HubConnection(socket, this.hub.methodsFor(user), {
      keepAliveMs: this.config.SANDBOX_KEEPALIVE_MS,
      handshakeTimeoutMs: HANDSHAKE_TIMEOUT_MS,
      isSilenced: () => this.exchange.faults.isOn('silence'),
      onProtocolError: () => undefined,
    });
    this.connections.add(connection);
    connection.onClosed(() => {
      this.connections.delete(connection);
      if (this.connections.size === 0) this.stopTicker();
    });
    this.startTicker();
  }

  private onFault({ name, enabled }: FaultChange): void {
    if (name === 'drop-connections' && enabled)
      for (const connection of [...this.connections]) connection.terminate();
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

/** Answers an upgrade request with an HTTP error and the exchange's error body (spec 7.1). */
function refuse(socket: Duplex, status: number, code: string, message: string): void {
  const body = JSON.stringify(errorBody(code, message));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}
