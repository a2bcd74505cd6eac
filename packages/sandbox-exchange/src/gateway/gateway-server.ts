import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { IncomingMessage, STATUS_CODES } from 'node:http';
import { Duplex } from 'node:stream';
import { RawData, WebSocket, WebSocketServer } from 'ws';
import { SandboxConfig } from '../config/sandbox-config';
import { FaultChange } from '../faults/fault-switchboard';
import { errorBody } from '../http/error-body';
import { UpgradeRouter } from '../http/upgrade-router';
import { SandboxExchange } from '../simulation/sandbox-exchange';
import { LoginSession, LoginSessions } from '../users/login-sessions';
import { SandboxUsers } from '../users/sandbox-users';
import { registerAccountCalls } from './account-calls';
import { GatewayCatalog } from './gateway-catalog';
import { GatewayConnection } from './gateway-connection';
import { GatewayDispatcher } from './gateway-dispatcher';
import { GatewayFunctions } from './gateway-functions';
import { Level1Feed } from './level1-feed';
import { Level2Feed } from './level2-feed';
import { registerMarketDataCalls } from './market-data-calls';
import { SessionStatusBook } from './session-status';
import { TradeFeed } from './trade-feed';

export const GATEWAY_PATH = '/WSGateway';
/** A larger client frame makes the websocket library close the socket with 1009 (message too big). */
export const MAX_FRAME_BYTES = 64 * 1024;
const DEFAULT_MALFORMED_INTERVAL_MS = 1000;
/** Not valid JSON: an event frame cut off in the middle. */
export const MALFORMED_FRAME = '{"m":3,"i":0,"n":"Level2UpdateEvent","o":"[[1,1,';
/** Sockets that do not answer the closing handshake at shutdown are cut off after this long. */
const SHUTDOWN_GRACE_MS = 1000;

/** Close codes the gateway uses. */
export const CloseCode = {
  GoingAway: 1001,
  PolicyViolation: 1008,
} as const;

/**
 * The websocket gateway at /WSGateway/: accepts sockets with or without a login's `session_token`,
 * answers frames through the registered functions, fans the markets' deltas, trades and Level 1
 * changes out to subscribers, and injects the gateway faults.
 *
 * While `silence` is on, frames from clients are ignored and nothing is sent; sockets stay open.
 */
@Injectable()
export class GatewayServer implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('SandboxGateway');
  private readonly server = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  private readonly connections = new Set<GatewayConnection>();
  private readonly statuses: SessionStatusBook;
  /** Instruments and products as the gateway numbers them; the private calls use it too. */
  readonly catalog: GatewayCatalog;
  private readonly level1: Level1Feed;
  private readonly level2 = new Level2Feed();
  private readonly trades: TradeFeed;
  private readonly dispatcher: GatewayDispatcher;
  private readonly unsubscribes: (() => void)[] = [];
  private malformedTimer?: NodeJS.Timeout;
  private closing = false;

  constructor(
    @Inject(SandboxExchange) private readonly exchange: SandboxExchange,
    @Inject(UpgradeRouter) private readonly upgrades: UpgradeRouter,
    @Inject(SandboxConfig) config: SandboxConfig,
    @Inject(SandboxUsers) private readonly users: SandboxUsers,
    @Inject(LoginSessions) private readonly sessions: LoginSessions,
    @Inject(GatewayFunctions) private readonly functions: GatewayFunctions,
  ) {
    this.statuses = new SessionStatusBook(exchange);
    this.catalog = new GatewayCatalog(exchange, this.statuses);
    this.level1 = new Level1Feed(exchange.clock);
    this.trades = new TradeFeed(config.SANDBOX_TRADE_EVENT);
    this.dispatcher = new GatewayDispatcher(functions);
  }

  onModuleInit(): void {
    const { exchange, catalog } = this;
    registerMarketDataCalls(this.functions, {
      catalog,
      level1: this.level1,
      level2: this.level2,
      trades: this.trades,
    });
    registerAccountCalls(this.functions, {
      exchange,
      catalog,
      users: this.users,
      sessions: this.sessions,
      clock: exchange.clock,
    });
    this.upgrades.register(GATEWAY_PATH, (request, socket, head) => this.upgrade(request, socket, head));
    this.unsubscribes.push(
      exchange.deltas.subscribe((delta) => {
        const market = exchange.marketById(delta.instrumentId);
        if (!market) return;
        this.level2.publish(delta, market);
        this.level1.touch(market);
      }),
      exchange.trades.subscribe((trades) => {
        const market = trades.length > 0 ? exchange.marketById(trades[0].instrumentId) : undefined;
        if (!market) return;
        this.trades.publish(trades, market);
        this.level1.touch(market);
      }),
      exchange.faults.changes.subscribe((change) => this.onFault(change)),
      this.sessions.revoked.subscribe(() => this.closeSessions()),
    );
    if (exchange.faults.isOn('malformed-frame')) this.startMalformedFrames();
  }

  /** Closes every socket with 1001 and waits for them; one that does not answer in time is cut off. */
  async onModuleDestroy(): Promise<void> {
    this.closing = true;
    for (const unsubscribe of this.unsubscribes.splice(0)) unsubscribe();
    clearInterval(this.malformedTimer);
    this.level1.close();
    this.statuses.close();
    const sockets = [...this.server.clients];
    const closed = sockets.map(
      (socket) =>
        new Promise<void>((resolve) => {
          if (socket.readyState === WebSocket.CLOSED) resolve();
          else socket.once('close', () => resolve());
        }),
    );
    for (const connection of this.connections) connection.close(CloseCode.GoingAway, 'server shutting down');
    const cutOff = setTimeout(() => sockets.forEach((socket) => socket.terminate()), SHUTDOWN_GRACE_MS);
    await Promise.all(closed);
    clearTimeout(cutOff);
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    if (this.closing || this.exchange.faults.isOn('drop-connections')) {
      refuse(socket, 503, 'unavailable', 'the gateway is not accepting connections');
      return;
    }
    const token = new URL(request.url ?? '/', 'http://sandbox').searchParams.get('session_token');
    let session: LoginSession | undefined;
    if (token) {
      session = this.sessions.withSessionToken(token);
      if (!session) {
        refuse(socket, 401, 'unauthorized', 'unknown or expired session_token');
        return;
      }
    }
    this.server.handleUpgrade(request, socket, head, (ws) => this.accept(ws, session));
  }

  private accept(socket: WebSocket, session: LoginSession | undefined): void {
    const connection = new GatewayConnection(socket, session, () => this.exchange.faults.isOn('silence'));
    this.connections.add(connection);
    socket.on('message', (data: RawData) => {
      if (this.exchange.faults.isOn('silence')) return;
      try {
        this.dispatcher.dispatch(connection, text(data));
      } catch (error) {
        this.logger.error(`frame failed: ${(error as Error).stack ?? String(error)}`);
      }
    });
    socket.on('error', (error) => this.logger.debug(`socket error: ${error.message}`));
    socket.on('close', () => {
      this.connections.delete(connection);
      this.level1.subscriptions.removeConnection(connection);
      this.level2.subscriptions.removeConnection(connection);
      this.trades.subscriptions.removeConnection(connection);
    });
  }

  private onFault({ name, enabled }: FaultChange): void {
    if (name === 'drop-connections' && enabled) {
      for (const connection of this.connections) connection.terminate();
    }
    if (name === 'malformed-frame') {
      clearInterval(this.malformedTimer);
      this.malformedTimer = undefined;
      if (enabled) this.startMalformedFrames();
    }
  }

  private startMalformedFrames(): void {
    const interval = Number(
      this.exchange.faults.params('malformed-frame')?.intervalMs ?? DEFAULT_MALFORMED_INTERVAL_MS,
    );
    this.malformedTimer = setInterval(() => {
      for (const connection of this.connections) connection.send(MALFORMED_FRAME);
    }, interval);
  }

  /** After every login was revoked, sockets tied to a login are closed. */
  private closeSessions(): void {
    for (const connection of this.connections) {
      if (connection.hasSession) connection.close(CloseCode.PolicyViolation, 'session expired');
    }
  }
}

function text(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data as ArrayBuffer).toString('utf8');
}

/** Answers an upgrade request with an HTTP error and the exchange's error body. */
function refuse(socket: Duplex, status: number, code: string, message: string): void {
  const body = JSON.stringify(errorBody(code, message));
  socket.on('error', () => undefined);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}
