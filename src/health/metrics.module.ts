import { Global, Module } from '@nestjs/common';
import { collectDefaultMetrics, Registry } from 'prom-client';

/** One Prometheus registry per application, so that tests can run several applications in one process. */
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
  ],
  exports: [Registry],
})
export class MetricsModule {}
