import { Inject, Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { SandboxTuning } from '../config/sandbox-tuning';
import { FaultChange } from '../faults/fault-switchboard';
import { errorBody } from '../http/error-body';
import { UpgradeRouter } from '../http/upgrade-router';
import { SandboxExchange } from '../simulation/sandbox-exchange';
import { SandboxUsers } from '../users/sandbox-users';
import { AccountHub } from './account-hub';
import { AccountHubAdmission, admitAccountHubRequest } from './account-hub-auth';
import { HubConnections } from './hub-connections';
import { HubNegotiation, NegotiateResponse } from './hub-negotiation';

/** The private hub's path (spec 4.3) and the longer one of the exchange's documentation. */
export const ACCOUNT_HUB_PATHS = ['/ws/account', '/frontoffice/ws/account'] as const;

const MAX_FRAME_BYTES = 64 * 1024;

/**
 * The websocket side of the private account hub: the same SignalR connections as the market-data
 * hub, admitted only with valid `Key`, `Sign` and `Payload` headers (on the negotiate request and
 * again on the upgrade), each serving the streams of its user's account.
 */
@Injectable()
export class AccountHubServer implements OnModuleInit, OnModuleDestroy {
  private readonly negotiation = new HubNegotiation();
  private readonly connections: HubConnections;
  private unsubscribe?: () => void;

  constructor(
    @Inject(SandboxExchange) private readonly exchange: SandboxExchange,
    @Inject(UpgradeRouter) private readonly upgrades: UpgradeRouter,
    @Inject(SandboxTuning) tuning: SandboxTuning,
    @Inject(SandboxUsers) private readonly users: SandboxUsers,
    @Inject(AccountHub) private readonly hub: AccountHub,
  ) {
    this.connections = new HubConnections({
      maxFrameBytes: MAX_FRAME_BYTES,
      keepAliveMs: tuning.hubKeepAliveMs,
      isSilenced: () => exchange.faults.isOn('silence'),
      isRefusing: () => exchange.faults.isOn('drop-connections'),
    });
  }

  onModuleInit(): void {
    for (const path of ACCOUNT_HUB_PATHS)
      this.upgrades.register(path, (request, socket, head) => this.upgrade(request, socket, head));
    this.unsubscribe = this.exchange.faults.changes.subscribe((change) => this.onFault(change));
  }

  onModuleDestroy(): Promise<void> {
    this.unsubscribe?.();
    return this.connections.shutdown();
  }

  get refusing(): boolean {
    return this.connections.refusing;
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
    const refuse = (status: number, code: string, message: string) =>
      refuseAsJson(socket, status, code, message);
    if (this.refusing) {
      refuse(503, '', 'System is currently overloaded');
      return;
    }
    const admission = this.admit(request.headers);
    if (!admission.ok) {
      refuse(401, admission.code, admission.message);
      return;
    }
    if (!this.connections.claimToken(request, socket, this.negotiation, refuse)) return;
    this.connections.accept(request, socket, head, this.hub.methodsFor(admission.user));
  }

  private onFault({ name, enabled }: FaultChange): void {
    if (name === 'drop-connections' && enabled)
      for (const connection of this.connections.all()) connection.terminate();
  }
}

/** Answers an upgrade request with an HTTP error and the exchange's error body (spec 7.1). */
function refuseAsJson(socket: Duplex, status: number, code: string, message: string): void {
  const body = JSON.stringify(errorBody(code, message));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}
