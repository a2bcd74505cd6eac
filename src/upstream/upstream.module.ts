import { DynamicModule, Global, Logger, Module } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { GatewayClient } from './gateway/gateway-client';
import { HubClient } from './hub/hub-client';
import { RestClient } from './rest/rest-client';
import { TokenBucketBudget } from './rest/token-bucket-budget';
import { UpstreamSettings } from './upstream-settings';

export const UPSTREAM_SETTINGS = Symbol('UpstreamSettings');

/** The clients of the exchange's three interfaces, one each per process; the ingest starts and stops them. */
@Global()
@Module({})
export class UpstreamModule {
  static forRoot(settings: UpstreamSettings): DynamicModule {
    return {
      module: UpstreamModule,
      providers: [
        { provide: UPSTREAM_SETTINGS, useValue: settings },
        {
          provide: RestClient,
          useFactory: () =>
            new RestClient({
              baseUrl: settings.baseUrl,
              budget: new TokenBucketBudget(),
              logger: new Logger(RestClient.name),
            }),
        },
        {
          provide: HubClient,
          inject: [AppConfig],
          useFactory: (config: AppConfig) =>
            new HubClient({
              baseUrl: settings.baseUrl,
              keepAliveIntervalMs: config.UPSTREAM_KEEPALIVE_MS,
              serverTimeoutMs: config.UPSTREAM_SERVER_TIMEOUT_MS,
              logger: new Logger(HubClient.name),
            }),
        },
        {
          provide: GatewayClient,
          inject: [AppConfig],
          useFactory: (config: AppConfig) =>
            new GatewayClient({
              wsUrl: settings.wsUrl,
              authUrl: settings.authUrl,
              credentials: settings.credentials,
              pingIntervalMs: config.UPSTREAM_KEEPALIVE_MS,
              pongTimeoutMs: config.UPSTREAM_PONG_TIMEOUT_MS,
              logger: new Logger(GatewayClient.name),
            }),
        },
      ],
      exports: [UPSTREAM_SETTINGS, RestClient, HubClient, GatewayClient],
    };
  }
}
