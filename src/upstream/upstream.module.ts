import { DynamicModule, Global, Inject, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import { Registry } from 'prom-client';
import { AppConfig, usesRedis } from '../config/app-config';
import { Tuning } from '../config/tuning';
import { UPSTREAM_READ_BATCH_MS } from './read-batching';
import { GatewayClient } from './gateway/gateway-client';
import { HubClient } from './hub/hub-client';
import { RedisRequestBudget } from './rest/redis-request-budget';
import { RequestBudget } from './rest/request-budget';
import { registerRequestBudgetMetrics } from './rest/request-budget-metrics';
import { RestClient } from './rest/rest-client';
import { TokenBucketBudget } from './rest/token-bucket-budget';
import { UpstreamRejections } from './upstream-rejections';
import { UpstreamSettings } from './upstream-settings';
import { UpstreamTap } from './upstream-tap';

export const UPSTREAM_SETTINGS = Symbol('UpstreamSettings');
export const REQUEST_BUDGET = Symbol('RequestBudget');

const BUDGET_READY_WAIT_MS = 5_000;

/**
 * The REST budget: shared through Redis by every replica when it keeps state in Redis, since the
 * exchange counts requests per client address and replicas may well share one; in-process otherwise.
 */
async function createRequestBudget(config: AppConfig): Promise<RequestBudget> {
  if (!usesRedis(config)) return new TokenBucketBudget();
  const logger = new Logger(RedisRequestBudget.name);
  const budget = RedisRequestBudget.fromConfig(config, { logger });
  // Until Redis answers, the budget keeps to this process's own requests; the replica starts anyway.
  if (!(await budget.connected(BUDGET_READY_WAIT_MS))) {
    logger.warn(`Redis not reachable within ${BUDGET_READY_WAIT_MS} ms; starting anyway`);
  }
  return budget;
}

class RequestBudgetLifecycle implements OnApplicationShutdown {
  constructor(
    @Inject(REQUEST_BUDGET) private readonly budget: RequestBudget,
    @Inject(Registry) registry: Registry,
  ) {
    registerRequestBudgetMetrics(registry, budget);
  }

  /** After every `beforeApplicationShutdown` hook, in which the ingest stops its requests. */
  async onApplicationShutdown(): Promise<void> {
    if (this.budget instanceof RedisRequestBudget) await this.budget.close();
  }
}

/** The clients of the exchange's three interfaces, one each per process; the ingest starts and stops them. */
@Global()
@Module({})
export class UpstreamModule {
  static forRoot(settings: UpstreamSettings): DynamicModule {
    return {
      module: UpstreamModule,
      providers: [
        { provide: UPSTREAM_SETTINGS, useValue: settings },
        { provide: REQUEST_BUDGET, inject: [AppConfig], useFactory: createRequestBudget },
        RequestBudgetLifecycle,
        UpstreamTap,
        {
          provide: UpstreamRejections,
          inject: [Registry],
          useFactory: (registry: Registry) =>
            new UpstreamRejections(new Logger(UpstreamRejections.name), { registry }),
        },
        {
          provide: RestClient,
          inject: [REQUEST_BUDGET, UpstreamRejections, UpstreamTap],
          useFactory: (budget: RequestBudget, rejections: UpstreamRejections, tap: UpstreamTap) =>
            new RestClient({
              baseUrl: settings.baseUrl,
              budget,
              logger: new Logger(RestClient.name),
              rejections,
              tap,
            }),
        },
        {
          provide: HubClient,
          inject: [Tuning, UpstreamRejections, UpstreamTap],
          useFactory: (tuning: Tuning, rejections: UpstreamRejections, tap: UpstreamTap) =>
            new HubClient({
              baseUrl: settings.baseUrl,
              keepAliveIntervalMs: tuning.upstreamKeepAliveMs,
              serverTimeoutMs: tuning.upstreamServerTimeoutMs,
              readBatchMs: UPSTREAM_READ_BATCH_MS,
              logger: new Logger(HubClient.name),
              rejections,
              tap,
            }),
        },
        {
          provide: GatewayClient,
          inject: [Tuning, UpstreamRejections, UpstreamTap],
          useFactory: (tuning: Tuning, rejections: UpstreamRejections, tap: UpstreamTap) =>
            new GatewayClient({
              wsUrl: settings.wsUrl,
              authUrl: settings.authUrl,
              credentials: settings.credentials,
              pingIntervalMs: tuning.upstreamKeepAliveMs,
              pongTimeoutMs: tuning.upstreamPongTimeoutMs,
              readBatchMs: UPSTREAM_READ_BATCH_MS,
              logger: new Logger(GatewayClient.name),
              rejections,
              tap,
            }),
        },
      ],
      exports: [UPSTREAM_SETTINGS, REQUEST_BUDGET, RestClient, HubClient, GatewayClient, UpstreamTap],
    };
  }
}
