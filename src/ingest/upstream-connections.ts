import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { GatewayClient } from '../upstream/gateway/gateway-client';
import { HubClient } from '../upstream/hub/hub-client';
import { UpstreamConnection } from './ingest-metrics';

/** The upstream connections the ingest uses: the hub only when books come from it, the gateway always. */
@Injectable()
export class UpstreamConnections {
  private readonly fromHub: boolean;

  constructor(
    @Inject(AppConfig) config: AppConfig,
    @Inject(HubClient) private readonly hub: HubClient,
    @Inject(GatewayClient) private readonly gateway: GatewayClient,
  ) {
    this.fromHub = config.BOOK_SOURCE === 'hub';
  }

  start(): void {
    if (this.fromHub) this.hub.start();
    this.gateway.start();
  }

  async stop(): Promise<void> {
    await Promise.all([this.hub.stop(), this.gateway.stop()]);
  }

  list(): UpstreamConnection[] {
    return [
      ...(this.fromHub
        ? [{ name: 'hub', state: () => this.hub.state, reconnects: () => this.hub.counters.reconnects }]
        : []),
      {
        name: 'gateway',
        state: () => this.gateway.state,
        reconnects: () => this.gateway.counters.reconnects,
      },
    ];
  }

  /** Each connection's state, and why it is down when it is: for `/health/ready`. */
  describe(): Record<string, string> {
    const shown = (state: string, problem: string | undefined): string =>
      state === 'connected' || !problem ? state : `${state}: ${problem}`;
    return {
      ...(this.fromHub ? { hub: shown(this.hub.state, this.hub.problem) } : {}),
      gateway: shown(this.gateway.state, this.gateway.problem),
    };
  }
}
