import type { LoggerService, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { AddressInfo } from 'node:net';
import type { Logger as PinoLogger } from 'pino';
import { ApiRoutes } from './api/api-routes';
import { ApiExceptionFilter } from './api/http/api-exception.filter';
import { ApiServer } from './api/http/api-server';
import { applyContentNegotiation } from './api/http/content-negotiation';
import { clientAddress, proxyTrust } from './api/http/client-address';
import { ClientRateLimit } from './api/http/client-rate-limit';
import { FastPath } from './api/http/fast-path';
import { frameworkErrors } from './api/http/framework-errors';
import { applyMethodNotAllowed } from './api/http/method-not-allowed';
import { applyRateLimit } from './api/http/rate-limit';
import { applySecurityHeaders } from './api/http/security-headers';
import { serveRoutes } from './api/http/serve-routes';
import { setUpOpenApi } from './api/openapi';
import { AppModule, servesApi } from './app.module';
import { AppConfig } from './config/app-config';
import { operationsOptions } from './health/fastify-operations';
import { HttpMetrics, observeHttp } from './health/http-metrics';
import { Readiness } from './health/readiness';
import { HttpDrain } from './lifecycle/drain-http';
import { UpstreamSettings } from './upstream/upstream-settings';
import { listenQuietly } from './lifecycle/listen-quietly';

export interface RunningApp {
  readonly app: NestFastifyApplication;
  readonly port: number;
  readonly url: string;
  /** Reports not ready from now on (`/health/ready` answers 503): the first step of a shutdown. */
  stopBeingReady(): void;
  /** Stops accepting connections and waits for the requests under way to be answered. */
  closeHttp(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts the gateway application for `config.ROLE` on `PORT` (0 picks a free port). `logger` is
 * Nest's (a `LoggerService` such as `NestPinoLogger`, or Nest's console logger at these levels),
 * `httpLogger` the HTTP server's (none by default).
 */
export async function startApp(
  config: AppConfig,
  upstream?: UpstreamSettings,
  logger: LoggerService | LogLevel[] | false = ['error', 'warn', 'log'],
  httpLogger?: PinoLogger,
): Promise<RunningApp> {
  const trust = proxyTrust(config.TRUST_PROXY);
  const server = new ApiServer(config.REQUEST_TIMEOUT_MS, trust);
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRole(config, upstream),
    new FastifyAdapter({
      frameworkErrors,
      // `/summary/` is `/summary`: served the same, never redirected.
      routerOptions: { ignoreTrailingSlash: true },
      ...operationsOptions(httpLogger),
      ...server.fastifyOptions(),
    }),
    // Fail with an error the caller sees, instead of exiting the process.
    { logger, abortOnError: false },
  );
  observeHttp(app.getHttpAdapter().getInstance(), app.get(HttpMetrics));
  app.useGlobalFilters(new ApiExceptionFilter());
  applySecurityHeaders(app.getHttpAdapter().getInstance());
  const corsOrigins = (config.CORS_ORIGINS ?? '').split(',').map((origin) => origin.trim());
  const cors = corsOrigins[0] !== '';
  if (cors)
    app.enableCors({ origin: corsOrigins.includes('*') ? '*' : corsOrigins, methods: ['GET', 'HEAD'] });
  const rateLimit =
    servesApi(config.ROLE) && config.RATE_LIMIT_PER_MINUTE > 0
      ? new ClientRateLimit(config.RATE_LIMIT_PER_MINUTE)
      : undefined;
  if (rateLimit) applyRateLimit(app.getHttpAdapter().getInstance(), rateLimit);
  applyMethodNotAllowed(app);
  applyContentNegotiation(app);
  if (servesApi(config.ROLE)) {
    const routes = app.get(ApiRoutes).all;
    serveRoutes(app.getHttpAdapter().getInstance(), routes);
    setUpOpenApi(app);
    server.fastPath = new FastPath({
      routes,
      rateLimit,
      clientAddress: clientAddress(trust),
      cors,
      metrics: app.get(HttpMetrics),
    });
  }
  const drain = new HttpDrain(app.getHttpServer());
  await listenQuietly(app, config.PORT, config.HOST);
  const { port } = app.getHttpServer().address() as AddressInfo;
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST;
  return {
    app,
    port,
    url: `http://${host}:${port}`,
    stopBeingReady: () => app.get(Readiness).shutDown(),
    closeHttp: () => drain.drain(() => app.getHttpAdapter().close()),
    close: () => app.close(),
  };
}
