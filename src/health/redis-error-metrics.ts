import { Counter, Registry } from 'prom-client';
import { redisErrorCounts } from '../store/redis-errors';

/** `mdg_redis_errors_total`: error events of the process's Redis connections, by connection. */
export function registerRedisErrorMetrics(registry: Registry): void {
  const reported = new Map<string, number>();
  new Counter({
    name: 'mdg_redis_errors_total',
    help: 'Error events of each Redis connection (failed connection attempts, connections lost, protocol errors).',
    labelNames: ['connection'],
    registers: [registry],
    collect() {
      for (const [connection, count] of redisErrorCounts()) {
        const increase = count - (reported.get(connection) ?? 0);
        if (increase > 0) this.inc({ connection }, increase);
        reported.set(connection, count);
      }
    },
  });
}
