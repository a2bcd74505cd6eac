import { Global, Module } from '@nestjs/common';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { Readiness } from './readiness';

/**
 * The application's Prometheus registry (one per application, so that tests can run several in one
 * process) and its readiness checks.
 */
@Global()
@Module({
  providers: [
    {
      provide: Registry,
      useFactory: () => {
        const registry = new Registry();
        collectDefaultMetrics({ register: registry, prefix: 'mdg_' });
        return registry;
      },
    },
    Readiness,
  ],
  exports: [Registry, Readiness],
})
export class ObservabilityModule {}
