import { Global, Module } from '@nestjs/common';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { HttpMetrics } from './http-metrics';
import { Readiness } from './readiness';
import { registerRedisErrorMetrics } from './redis-error-metrics';

/**
 * The application's Prometheus registry (one per application, so that tests can run several in one
 * process), its HTTP and Redis error metrics, and its readiness checks.
 */
@Global()
@Module({
  providers: [
    {
      provide: Registry,
      useFactory: () => {
        const registry = new Registry();
        collectDefaultMetrics({ register: registry, prefix: 'mdg_' });
        registerRedisErrorMetrics(registry);
        return registry;
      },
    },
    {
      provide: HttpMetrics,
      inject: [Registry],
      useFactory: (registry: Registry) => new HttpMetrics(registry),
    },
    Readiness,
  ],
  exports: [Registry, Readiness, HttpMetrics],
})
export class ObservabilityModule {}
