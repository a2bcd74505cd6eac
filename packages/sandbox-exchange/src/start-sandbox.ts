import { Module, type LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { AddressInfo } from 'node:net';
import { SandboxConfig } from './config/sandbox-config';
import { SandboxConfigModule } from './config/sandbox-config.module';
import { SandboxTuning } from './config/sandbox-tuning';
import { SandboxModule } from './sandbox.module';
import { SandboxExchange } from './simulation/sandbox-exchange';

export interface RunningSandbox {
  readonly app: NestFastifyApplication;
  readonly exchange: SandboxExchange;
  readonly port: number;
  /** Root of the REST interface and the hubs. */
  readonly baseUrl: string;
  /** Root of the login call. */
  readonly authUrl: string;
  /** Root of the websocket gateway. */
  readonly wsUrl: string;
  close(): Promise<void>;
}

/** The address the sandbox binds to. */
export function sandboxHost(config: Pick<SandboxConfig, 'HOST' | 'SANDBOX_HOST'>): string {
  return config.SANDBOX_HOST ?? config.HOST;
}

/** Starts the sandbox exchange on `SANDBOX_PORT` (0 picks a free port); `tuning` is the defaults but in tests. */
export async function startSandbox(
  config: SandboxConfig,
  logger: LogLevel[] | false = ['error', 'warn', 'log'],
  tuning: Partial<SandboxTuning> = {},
): Promise<RunningSandbox> {
  const tuned = Object.assign(new SandboxTuning(), tuning);
  @Module({ imports: [SandboxConfigModule.forRoot(config, tuned), SandboxModule] })
  class SandboxAppModule {}

  // A request still under way at shutdown is cut off: the server's close would wait for it.
  const adapter = new FastifyAdapter({ forceCloseConnections: true });
  const app = await NestFactory.create<NestFastifyApplication>(SandboxAppModule, adapter, {
    logger,
    // Fail with an error the caller sees, instead of exiting the process.
    abortOnError: false,
    // Private calls are signed over the body exactly as sent.
    rawBody: true,
  });
  app.enableShutdownHooks();
  await app.init();
  // Fastify's own listen: a failure reaches the caller without Nest's error line, to be told once.
  const bound = sandboxHost(config);
  await app.getHttpAdapter().getInstance().listen({ port: config.SANDBOX_PORT, host: bound });
  const { port } = app.getHttpServer().address() as AddressInfo;
  const host = bound === '0.0.0.0' || bound === '::' ? '127.0.0.1' : bound;
  const baseUrl = `http://${host}:${port}`;
  return {
    app,
    exchange: app.get(SandboxExchange),
    port,
    baseUrl,
    authUrl: baseUrl,
    wsUrl: `ws://${host}:${port}`,
    close: () => app.close(),
  };
}

/** Where each interface of a running sandbox listens: the fields of its start-up log line. */
export interface SandboxBanner {
  readonly markets: number;
  readonly rest: readonly string[];
  readonly hub: string;
  readonly privateRest: string;
  readonly privateHub: string;
  readonly login: string;
  /** Without a users file (`SANDBOX_USERS_FILE`) only. */
  readonly demoUser?: string;
  readonly gateway: string;
  readonly control: readonly string[];
}

/** What the start-up line of the sandbox says: its markets and where each interface listens. */
export function describeSandbox(
  sandbox: RunningSandbox,
  config: Pick<SandboxConfig, 'SANDBOX_USERS_FILE'>,
): SandboxBanner {
  const { baseUrl, wsUrl, exchange } = sandbox;
  return {
    markets: exchange.all().length,
    rest: [
      `${baseUrl}/frontoffice/api/info`,
      `${baseUrl}/marketdata/instruments/{instrument}/depth`,
      `${baseUrl}/marketdata/instruments/{instrument}/history`,
    ],
    hub: `${baseUrl}/marketdata/info`,
    privateRest: `${baseUrl}/frontoffice/api`,
    privateHub: `${baseUrl}/ws/account`,
    login: `${baseUrl}/api/v1/trade/auth`,
    ...(config.SANDBOX_USERS_FILE ? {} : { demoUser: 'demo@example.com (password demo)' }),
    gateway: `${wsUrl}/WSGateway/`,
    control: [
      `${baseUrl}/sandbox/truth/{instrument}`,
      `${baseUrl}/sandbox/faults`,
      `${baseUrl}/sandbox/flow`,
      `${baseUrl}/sandbox/stats`,
      `${baseUrl}/sandbox/markets/{instrument}/step`,
    ],
  };
}
