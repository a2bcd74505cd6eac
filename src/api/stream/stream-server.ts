import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { Registry } from 'prom-client';
import { WebSocket, WebSocketServer } from 'ws';
import { Tuning } from '../../config/tuning';
import { StateStore } from '../../store/state-store';
import { STATE_STORE } from '../../store/store.module';
import { ListingService } from '../views/listing-service';
import { MarketViews } from '../views/market-views';
import { AddressCounts } from './address-counts';
import { StreamConnection } from './stream-connection';
import { streamLimits, StreamLimits } from './stream-limits';
import { StreamMetrics } from './stream-metrics';
import { SERVICE_RESTART_CLOSE } from './stream-reply';
import { TickerFeed } from './ticker-feed';
import { TradeFeeds } from './trade-feeds';
import { CandleFeeds } from './candle-feeds';
import { earlierBarsOf } from './earlier-bars';
import { ChartBars } from '../charts/chart-bars';
import { refuseUpgrade } from './upgrade-refusal';

export const STREAM_PATH = '/stream';
/** A frame this many times the frame limit is not even read: the connection is closed (1009). */
const HARD_FRAME_FACTOR = 4;
/** How long readers get to close their side after the shutdown message before they are cut off. */
const CLOSE_GRACE_MS = 2_000;

/**
 * The live stream at `GET /stream`: takes the HTTP server's websocket upgrades, serves each reader
 * with a `StreamConnection`, and on shutdown tells every reader to reconnect elsewhere.
 */
@Injectable()
export class StreamServer implements OnModuleDestroy {
  private readonly logger = new Logger(StreamServer.name);
  private readonly limits: StreamLimits;
  private readonly trades: TradeFeeds;
  private readonly candles: CandleFeeds;
  private readonly ticker: TickerFeed;
  private readonly sockets: WebSocketServer;
  private readonly connections = new Map<WebSocket, StreamConnection>();
  private readonly addresses: AddressCounts;
  private readonly metrics: StreamMetrics;
  private heartbeat?: NodeJS.Timeout;
  private closing?: Promise<void>;

  constructor(
    tuning: Tuning,
    private readonly views: MarketViews,
    listing: ListingService,
    @Inject(STATE_STORE) store: StateStore,
    registry: Registry,
    chart: ChartBars,
  ) {
    this.limits = streamLimits(tuning);
    this.metrics = new StreamMetrics(registry, () => this.connections.values());
    this.addresses = new AddressCounts(this.limits.maxConnectionsPerAddress);
    // A trade channel starts after the newest trade the listing knows of, else at the present.
    this.trades = new TradeFeeds(
      store,
      (instrument) => views.head(instrument)?.lastTrade?.time || Date.now(),
    );
    // The open bars are built as the chart bars are: the trade list for the last 24 hours, history before.
    this.candles = new CandleFeeds(store, (instrument) => views.tradeList(instrument), earlierBarsOf(chart));
    this.ticker = new TickerFeed(listing, views);
    this.sockets = new WebSocketServer({
      noServer: true,
      maxPayload: this.limits.maxFrameBytes * HARD_FRAME_FACTOR,
      perMessageDeflate: false,
    });
  }

  /**
   * Takes the upgrades of `server`: `/stream` is served, any other path is refused with a 404, and a
   * client address (as the rate limit sees it) that holds as many connections as allowed with a 429.
   */
  attach(server: Server, clientAddress: (request: IncomingMessage) => string): void {
    server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      const path = new URL(request.url ?? '/', 'http://gateway').pathname.replace(/\/$/, '');
      if (path !== STREAM_PATH) return this.refuse(socket, 404, 'no websocket here');
      if (this.closing) return this.refuse(socket, 503, 'the server is stopping');
      const release = this.addresses.open(clientAddress(request));
      if (!release)
        return this.refuse(
          socket,
          429,
          `at most ${this.limits.maxConnectionsPerAddress} stream connections per client`,
        );
      // The socket closes whether the upgrade fails or the connection ends later.
      socket.once('close', release);
      this.sockets.handleUpgrade(request, socket, head, (ws) => this.accept(ws, socket));
    });
    // One heartbeat for the readers of every server attached (the API's, the console's own).
    this.heartbeat ??= setInterval(
      () => {
        const now = Date.now();
        for (const connection of this.connections.values()) {
          connection.heartbeatIfSilent(now);
          connection.closeIfTooSlow(now);
        }
      },
      Math.max(50, this.limits.heartbeatMs / 4),
    );
    this.heartbeat.unref();
  }

  /** Every reader gets `shutdown` and close code 1012; resolves once all are gone. */
  close(): Promise<void> {
    this.closing ??= this.closeAll();
    return this.closing;
  }

  onModuleDestroy(): Promise<void> {
    return this.close();
  }

  private accept(ws: WebSocket, transport: Duplex): void {
    if (this.closing) {
      ws.close(SERVICE_RESTART_CLOSE, 'service restart');
      return;
    }
    const connection = new StreamConnection(
      ws,
      {
        findMarket: (instrument) => this.views.find(instrument),
        listingReady: () => this.views.ready,
        books: this.views.books,
        trades: this.trades,
        candles: this.candles,
        ticker: this.ticker,
        limits: this.limits,
        metrics: this.metrics,
      },
      transport,
    );
    this.connections.set(ws, connection);
    ws.on('close', () => this.connections.delete(ws));
    ws.on('error', (error) => this.logger.debug(`stream connection failed: ${error.message}`));
  }

  private refuse(socket: Duplex, status: number, message: string): void {
    this.metrics.refusedUpgrade(status);
    refuseUpgrade(socket, status, message);
  }

  private async closeAll(): Promise<void> {
    clearInterval(this.heartbeat);
    const open = [...this.connections.keys()];
    const gone = open.map(
      (ws) =>
        new Promise<void>((resolve) =>
          ws.readyState === WebSocket.CLOSED ? resolve() : ws.once('close', () => resolve()),
        ),
    );
    for (const connection of this.connections.values()) connection.shutDown(SERVICE_RESTART_CLOSE);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_GRACE_MS)));
    await Promise.race([Promise.all(gone), late]);
    clearTimeout(timer);
    for (const ws of open) ws.terminate();
    this.trades.close();
    this.candles.close();
    this.ticker.close();
    await new Promise<void>((resolve) => this.sockets.close(() => resolve()));
  }
}
