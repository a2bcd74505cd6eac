import {
  BeforeApplicationShutdown,
  Inject,
  Logger,
  Module,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Server } from 'node:http';
import { SandboxConfig } from './config/sandbox-config';
import { UpgradeRouter } from './http/upgrade-router';
import { loadMarkets } from './market/market-catalog';
import { SandboxExchange } from './simulation/sandbox-exchange';

export function createSandboxExchange(config: SandboxConfig): SandboxExchange {
  const exchange = new SandboxExchange({
    markets: loadMarkets({
      file: config.SANDBOX_MARKETS_FILE,
      count: config.SANDBOX_MARKET_COUNT,
      seed: config.SANDBOX_SEED,
    }),
    seed: config.SANDBOX_SEED,
    flowRate: config.SANDBOX_FLOW_RATE,
    historyHours: config.SANDBOX_HISTORY_HOURS,
    ...(config.SANDBOX_HISTORY_RATE === undefined ? {} : { historyRate: config.SANDBOX_HISTORY_RATE }),
  });
  exchange.prepare();
  return exchange;
}

/**
 * Starts the synthetic flow and the websocket routing with the application; at shutdown cuts off the
 * websocket sockets its interfaces left open, and stops the flow.
 */
class SandboxLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger('Sandbox');

  constructor(
    @Inject(SandboxExchange) private readonly exchange: SandboxExchange,
    @Inject(UpgradeRouter) private readonly upgrades: UpgradeRouter,
    @Inject(HttpAdapterHost) private readonly adapterHost: HttpAdapterHost,
  ) {}

  onApplicationBootstrap(): void {
    this.upgrades.attach(this.adapterHost.httpAdapter.getHttpServer() as Server);
    this.exchange.start();
  }

  /** After every interface closed its connections (`onModuleDestroy`), before the HTTP server closes. */
  beforeApplicationShutdown(): void {
    const cut = this.upgrades.cutOff();
    if (cut > 0) this.logger.debug(`${cut} upgraded or refused socket(s) still open at shutdown, cut off`);
  }

  onApplicationShutdown(): void {
    this.exchange.stop();
  }
}

/** The simulated exchange itself and the shared plumbing its interfaces are built on. */
@Module({
  providers: [
    { provide: SandboxExchange, useFactory: createSandboxExchange, inject: [SandboxConfig] },
    UpgradeRouter,
    SandboxLifecycle,
  ],
  exports: [SandboxExchange, UpgradeRouter],
})
export class SandboxCoreModule {}
