import type { LoggerService, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { AddressInfo } from 'node:net';
import type { Logger as PinoLogger } from 'pino';
import { HttpApi } from './api/http-api';
import { AppModule } from './app.module';
import { servesApi } from './config/role';
import { AppConfig } from './config/app-config';
import { Tuning } from './config/tuning';
import { operationsOptions } from './health/fastify-operations';
import { Readiness } from './health/readiness';
import { HttpDrain } from './lifecycle/drain-http';
import { explainListenError } from './lifecycle/listen-failure';
import { listenQuietly } from './lifecycle/listen-quietly';
import { restoreFastStringPrototype } from './store/fast-string-prototype';
import { UpstreamSettings } from './upstream/upstream-settings';

export interface RunningApp {
  readonly app: NestFastifyApplication;
  readonly port: number;
  readonly url: string;
  /** The operator console's own port (`CONSOLE_PORT`); undefined when it is served on `port`. */
  readonly consolePort?: number;
  /** Reports not ready from now on (`/health/ready` answers 503): the first step of a shutdown. */
  stopBeingReady(): void;
  /**
   * Closes the live stream's connections, each told to reconnect elsewhere, stops accepting
   * connections, and waits for the requests under way to be answered.
   */
  closeHttp(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts the gateway application for `config.ROLE` on `PORT` (0 picks a free port). `logger` is
 * Nest's (a `LoggerService` such as `NestPinoLogger`, or Nest's console logger at these levels),
 * `httpLogger` the HTTP server's (none by default). `tuning` is the defaults but in tests.
 */
export async function startApp(
  config: AppConfig,
  upstream?: UpstreamSettings,
  logger: LoggerService | LogLevel[] | false = ['error', 'warn', 'log'],
  httpLogger?: PinoLogger,
  tuning = new Tuning(),
): Promise<RunningApp> {
  restoreFastStringPrototype();
  const http = new HttpApi(config, tuning, servesApi(config.ROLE));
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRole(config, upstream, tuning),
    new FastifyAdapter({ ...operationsOptions(httpLogger), ...http.fastifyOptions() }),
    // Fail with an error the caller sees, instead of exiting the process. No body parsers: the server
    // reads and drops request bodies itself (body-limit.ts); a parser would wait for one in vain.
    { logger, abortOnError: false, bodyParser: false },
  );
  http.setUp(app);
  const drain = new HttpDrain(app.getHttpServer());
  await listenQuietly(app, config.PORT, config.HOST);
  const { port } = app.getHttpServer().address() as AddressInfo;
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST;
  let consolePort: number | undefined;
  try {
    consolePort = await http.listenForConsole(config.HOST);
  } catch (error) {
    await app.close();
    throw explainListenError(error, 'CONSOLE_PORT', config.HOST, config.CONSOLE_PORT ?? 0) ?? error;
  }
  return {
    app,
    port,
    consolePort,
    url: `http://${host}:${port}`,
    stopBeingReady: () => app.get(Readiness).shutDown(),
    closeHttp: async () => {
      await http.closeStreams();
      await drain.drain(() => app.getHttpAdapter().close());
    },
    close: async () => {
      await http.closeConsoleServer();
      await app.close();
    },
  };
}
