import type { LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { AddressInfo } from 'node:net';
import { ApiExceptionFilter } from './api/http/api-exception.filter';
import { frameworkErrors } from './api/http/framework-errors';
import { serveDirectly } from './api/http/direct-routes';
import { registerRateLimit } from './api/http/rate-limit';
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
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRole(config, upstream),
    new FastifyAdapter({ frameworkErrors }),
    // Fail with an error the caller sees, instead of exiting the process.
    { logger, abortOnError: false },
  );
  app.enableShutdownHooks();
  app.useGlobalFilters(new ApiExceptionFilter());
  if (servesApi(config.ROLE)) {
    await registerRateLimit(app, config.RATE_LIMIT_PER_MINUTE);
    serveDirectly(app, app.get(ListingController).directHandlers());
    setUpOpenApi(app);
  }
  await app.listen(config.PORT, config.HOST);
  const { port } = app.getHttpServer().address() as AddressInfo;
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST;
  return { app, port, url: `http://${host}:${port}`, close: () => app.close() };
}
