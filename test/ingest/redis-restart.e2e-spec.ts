import { LISTED } from '../support/fault-cases';
import { sleep, waitFor } from '../support/fault-run';
import { openReader, startTestStack, TestStack } from '../support/start-test-stack';
import { expectConverges, setFlow } from '../support/truth';

const FLOW = 20;

/**
 * Redis restarts empty while the service ingests: once it answers again, the writer puts back
 * everything (every book, every 24-hour trade, the market catalogue), whether its writes failed
 * during the outage or the restart went unnoticed between two writes.
 */
describe('ingest through a Redis restart', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startTestStack({ sandbox: { SANDBOX_FLOW_RATE: String(FLOW) } });
    await expectConverges(stack.sandbox, stack.store, LISTED, 30_000);
  }, 60_000);
  afterAll(() => stack.close());

  /** The catalogue as a replica of the API reads it from Redis. */
  async function storedMarkets(): Promise<string[] | undefined> {
    const reader = await openReader(stack);
    try {
      return (await reader.readCatalog())?.markets.map((market) => market.instrument);
    } finally {
      await reader.close();
    }
  }

  it('Redis down while the market moves, then back empty on the same port', async () => {
    expect(stack.redis!.canKill).toBe(true);
    await setFlow(stack.sandbox, FLOW);
    await stack.redis!.kill();
    await sleep(1_500);
    await stack.redis!.restart();
    await sleep(500);
    await expectConverges(stack.sandbox, stack.store, LISTED, 10_000);
    await waitFor(
      async () => (await storedMarkets())?.includes('btc_usdt') === true,
      'catalogue stored',
      5_000,
    );
  });

  it('Redis restarted empty while the market is quiet: nothing failed, the store still gets everything', async () => {
    await setFlow(stack.sandbox, 0);
    await sleep(300);
    await stack.redis!.restart();
    await expectConverges(stack.sandbox, stack.store, LISTED, 10_000);
    await waitFor(
      async () => (await storedMarkets())?.includes('btc_usdt') === true,
      'catalogue stored',
      5_000,
    );
  });
});
