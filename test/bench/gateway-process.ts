import { tuning } from '../../src/config/tuning';
import { loadConfig } from '../../src/config/load-config';
import { startApp } from '../../src/start-app';
import { resolveUpstream } from '../../src/upstream/upstream-settings';
import { CLOSE, ServerReady } from './server-process';

/**
 * The gateway under test, as a process of its own: role `BENCH_ROLE` (`all`, the default, ingests
 * and serves with state in memory; `api` serves and `ingest` ingests, both on the Redis at
 * `BENCH_REDIS_URL`), the exchange at `BENCH_UPSTREAM_URL` (the sandbox, logged in as its demo
 * user), the rate limit off so that the load generator is not limited, `BENCH_LISTING_HEALTH_REFRESH_MS`
 * as the tuning's `listingHealthRefreshMs` when set, every other setting at its default.
 */
async function main(): Promise<void> {
  const role = process.env.BENCH_ROLE ?? 'all';
  const config = loadConfig({
    ROLE: role,
    HOST: '127.0.0.1',
    PORT: '0',
    RATE_LIMIT_PER_MINUTE: '0',
    ...(role === 'all' ? {} : { REDIS_URL: requiredEnv('BENCH_REDIS_URL') }),
    UPSTREAM_BASE_URL: requiredEnv('BENCH_UPSTREAM_URL'),
    UPSTREAM_EMAIL: 'demo@example.com',
    UPSTREAM_PASSWORD: 'demo',
  });
  const refreshMs = process.env.BENCH_LISTING_HEALTH_REFRESH_MS;
  const upstream = role === 'api' ? undefined : resolveUpstream(config);
  const app = await startApp(
    config,
    upstream,
    ['error'],
    undefined,
    tuning(refreshMs ? { listingHealthRefreshMs: Number(refreshMs) } : {}),
  );
  process.on('message', (message) => {
    if (message !== CLOSE) return;
    void app.close().finally(() => process.exit(0));
  });
  const ready: ServerReady = { url: app.url };
  process.send?.(ready);
}

function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

main().catch((error: unknown) => {
  process.stderr.write(`gateway: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
