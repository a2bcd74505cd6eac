import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyServerOptions } from 'fastify';
import { AppConfig } from '../config/app-config';
import { Tuning } from '../config/tuning';
import { HttpMetrics, observeHttp } from '../health/http-metrics';
import { ApiRoutes } from './api-routes';
import { ApiExceptionFilter } from './http/api-exception.filter';
import { ApiServer } from './http/api-server';
import { parseNoBodies } from './http/body-limit';
import { clientAddress, ProxyTrust, proxyTrust } from './http/client-address';
import { ClientRateLimit } from './http/client-rate-limit';
import { DataSourceHeader } from './http/data-source-header';
import { applyContentNegotiation } from './http/content-negotiation';
import { FastPath } from './http/fast-path';
import { frameworkErrors } from './http/framework-errors';
import { applyMethodNotAllowed } from './http/method-not-allowed';
import { applyRateLimit } from './http/rate-limit';
import { applySecurityHeaders } from './http/security-headers';
import { serveRoutes } from './http/serve-routes';
import { serveAsyncApi } from './asyncapi';
import { setUpOpenApi } from './openapi';
import { apiContact } from './schema/document-info';
import { streamLimits } from './stream/stream-limits';
import { StreamServer } from './stream/stream-server';
import { serveUpgradeRequired } from './stream/upgrade-required';
import { serveConsolePages } from './console/console-pages';
import { ConsoleState } from './console/console-state';
import { MarketViews } from './views/market-views';
import { serveTradingViewStreaming } from './tradingview/tradingview-streaming-route';
import { TradingViewStreaming } from './tradingview/tradingview-streaming';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * How the application answers HTTP: the server and its limits (it reads request bodies itself, so
 * Fastify parses none), the hooks every response goes through (request id and metrics, security
 * headers, CORS, rate limit, 405, 406, error bodies), and for the API role its routes, served by
 * Fastify and, for the hot ones, by the fast path ahead of it.
 */
export class HttpApi {
  private readonly trust: ProxyTrust | undefined;
  private readonly server: ApiServer;
  private stream?: StreamServer;
  private console?: ConsoleState;
  private tradingViewStreaming?: TradingViewStreaming;
  private consoleServer?: Server;
  private consolePort?: number;

  constructor(
    private readonly config: AppConfig,
    private readonly tuning: Tuning,
    /** The application serves the API's routes (its role includes the API). */
    private readonly servesRoutes: boolean,
  ) {
    this.trust = proxyTrust(config.TRUST_PROXY);
    this.server = new ApiServer(tuning.requestTimeoutMs, this.trust);
  }

  /** Options of the Fastify instance, to be given to its adapter. */
  fastifyOptions(): FastifyServerOptions {
    return {
      frameworkErrors,
      // `/summary/` is `/summary`: served the same, never redirected.
      routerOptions: { ignoreTrailingSlash: true },
      ...this.server.fastifyOptions(),
    };
  }

  /** Sets `app` up to answer; before it is initialised, as some hooks learn routes as they are added. */
  setUp(app: NestFastifyApplication): void {
    const fastify = app.getHttpAdapter().getInstance();
    const metrics = app.get(HttpMetrics);
    observeHttp(fastify, metrics);
    parseNoBodies(fastify);
    app.useGlobalFilters(new ApiExceptionFilter());
    applySecurityHeaders(fastify);
    const views = this.servesRoutes ? app.get(MarketViews) : undefined;
    const dataSource = views && new DataSourceHeader(() => views.sandbox);
    dataSource?.apply(fastify);
    const corsOrigins = (this.config.CORS_ORIGINS ?? '').split(',').map((origin) => origin.trim());
    const cors = corsOrigins[0] !== '';
    if (cors)
      app.enableCors({ origin: corsOrigins.includes('*') ? '*' : corsOrigins, methods: ['GET', 'HEAD'] });
    const rateLimit =
      this.servesRoutes && this.config.RATE_LIMIT_PER_MINUTE > 0
        ? new ClientRateLimit(this.config.RATE_LIMIT_PER_MINUTE)
        : undefined;
    if (rateLimit) applyRateLimit(fastify, rateLimit);
    applyMethodNotAllowed(app);
    applyContentNegotiation(app);
    if (!this.servesRoutes) return;
    const routes = app.get(ApiRoutes).all;
    serveRoutes(fastify, routes);
    const contact = apiContact(this.config);
    setUpOpenApi(app, contact);
    serveAsyncApi(app, streamLimits(this.tuning), contact);
    this.console = app.get(ConsoleState);
    serveConsolePages(fastify, {
      config: this.config,
      state: this.console,
      consolePort: () => this.consolePort,
    });
    this.tradingViewStreaming = app.get(TradingViewStreaming);
    serveTradingViewStreaming(fastify, this.tradingViewStreaming);
    this.stream = app.get(StreamServer);
    this.stream.attach(app.getHttpServer(), clientAddress(this.trust));
    serveUpgradeRequired(fastify);
    this.server.fastPath = new FastPath({
      routes,
      rateLimit,
      clientAddress: clientAddress(this.trust),
      cors,
      metrics,
      dataSource,
    });
  }

  /**
   * With `CONSOLE_PORT`, the operator console's own server, listening on it (0: a free port);
   * resolves to its port, or undefined when the console shares the API's port or is off.
   */
  async listenForConsole(host: string): Promise<number | undefined> {
    const { CONSOLE_PORT: port, CONSOLE_ENABLED: enabled } = this.config;
    if (!this.servesRoutes || !enabled || port === undefined) return undefined;
    const server = this.server.createConsoleServer();
    // The market page's live candles come from the stream, on the page's own origin.
    this.stream?.attach(server, clientAddress(this.trust));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    this.consoleServer = server;
    this.consolePort = (server.address() as AddressInfo).port;
    return this.consolePort;
  }

  /**
   * Tells the live stream's readers to reconnect elsewhere and closes them, ends the pages' feeds
   * (their browsers reconnect by themselves) and closes the console's own server: they would all
   * hold a drain.
   */
  async closeStreams(): Promise<void> {
    this.console?.closeFeeds();
    this.tradingViewStreaming?.close();
    await this.closeConsoleServer();
    await this.stream?.close();
  }

  closeConsoleServer(): Promise<void> {
    const server = this.consoleServer;
    this.consoleServer = undefined;
    if (!server) return Promise.resolve();
    return new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }
}
