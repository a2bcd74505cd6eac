import type { LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { AddressInfo } from 'node:net';
import { CoingeckoController } from './api/coingecko/coingecko.controller';
import { ApiExceptionFilter } from './api/http/api-exception.filter';
import { ApiServer } from './api/http/api-server';
import { clientAddress, proxyTrust } from './api/http/client-address';
import { ClientRateLimit } from './api/http/client-rate-limit';
import { DirectHandlers, serveDirectly } from './api/http/direct-routes';
import { FastPath } from './api/http/fast-path';
import { frameworkErrors } from './api/http/framework-errors';
import { applyRateLimit } from './api/http/rate-limit';
import { applySecurityHeaders, SECURITY_HEADERS } from './api/http/security-headers';
import { ListingController } from './api/listing/listing.controller';
import { setUpOpenApi } from './api/openapi';
import { AppModule, servesApi } from './app.module';
import { AppConfig } from './config/app-config';
import { UpstreamSettings } from './upstream/upstream-settings';

export interface RunningApp {
  readonly app: NestFastifyApplication;
  readonly port: number;
  readonly url: string;
  close(): Promise<void>;
}

/** Starts the gateway application for `config.ROLE` on `PORT` (0 picks a free port). */
export async function startApp(
  config: AppConfig,
  upstream?: UpstreamSettings,
  logger: LogLevel[] | false = ['error', 'warn', 'log'],
): Promise<RunningApp> {
  const trust = proxyTrust(config.TRUST_PROXY);
  const server = new ApiServer(config.REQUEST_TIMEOUT_MS, trust);
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRole(config, upstream),
    new FastifyAdapter({ frameworkErrors, ...server.fastifyOptions() }),
    // Fail with an error the caller sees, instead of exiting the process.
    { logger, abortOnError: false },
  );
  app.enableShutdownHooks();
  app.useGlobalFilters(new ApiExceptionFilter());
  applySecurityHeaders(app);
  const corsOrigins = (config.CORS_ORIGINS ?? '').split(',').map((origin) => origin.trim());
  const cors = corsOrigins[0] !== '';
  if (cors)
    app.enableCors({ origin: corsOrigins.includes('*') ? '*' : corsOrigins, methods: ['GET', 'HEAD'] });
  if (servesApi(config.ROLE)) {
    const rateLimit =
      config.RATE_LIMIT_PER_MINUTE > 0 ? new ClientRateLimit(config.RATE_LIMIT_PER_MINUTE) : undefined;
    if (rateLimit) applyRateLimit(app, rateLimit);
    const handlers: DirectHandlers = new Map([
      ...app.get(ListingController).directHandlers(),
      ...app.get(CoingeckoController).directHandlers(),
    ]);
    serveDirectly(app, handlers);
    setUpOpenApi(app);
    server.fastPath = new FastPath({
      handlers,
      headers: SECURITY_HEADERS,
      rateLimit,
      clientAddress: clientAddress(trust),
      cors,
    });
  }
  await app.listen(config.PORT, config.HOST);
  const { port } = app.getHttpServer().address() as AddressInfo;
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST;
  return { app, port, url: `http://${host}:${port}`, close: () => app.close() };
}
