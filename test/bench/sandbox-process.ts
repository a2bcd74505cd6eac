import { startTestSandbox } from '../support/start-test-sandbox';
import { CLOSE, ServerReady } from './server-process';

/**
 * The exchange the gateway ingests from, as a process of its own as it is in production, so that
 * the gateway's process holds only the gateway. `BENCH_FLOW_RATE` is the synthetic orders per
 * second per market: 0 is a quiet market.
 */
async function main(): Promise<void> {
  const sandbox = await startTestSandbox({ SANDBOX_FLOW_RATE: process.env.BENCH_FLOW_RATE ?? '0' });
  process.on('message', (message) => {
    if (message !== CLOSE) return;
    void sandbox.close().finally(() => process.exit(0));
  });
  const ready: ServerReady = { url: sandbox.baseUrl };
  process.send?.(ready);
}

main().catch((error: unknown) => {
  process.stderr.write(`sandbox: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
