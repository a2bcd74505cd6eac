import { LISTED } from '../support/fault-cases';
import { sleep, waitFor } from '../support/fault-run';
import { startTestStack, TestStack } from '../support/start-test-stack';
import { expectConverges, setFault } from '../support/truth';

/**
 * A catalogue refreshed while the gateway is out of reach has no gateway ids, and pipelines opened
 * from it (here after a Redis restart took every lease) have no trade feed. Once a later refresh
 * brings the ids back, the pipelines are opened again with them and the trades flow again.
 */
describe('a catalogue without gateway ids, then one with them', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startTestStack({
      sandbox: { SANDBOX_FLOW_RATE: '10' },
      app: { CATALOG_REFRESH_MS: '2000', LEASE_TTL_MS: '2000' },
    });
    await expectConverges(stack.sandbox, stack.store, LISTED, 20_000);
  }, 60_000);
  afterAll(() => stack?.close());

  it('opens the trade feeds again, and the store gets every trade', async () => {
    await setFault(stack.sandbox, 'drop-connections', true);
    await waitFor(
      async () => (await stack.store.readCatalog())?.markets.every((market) => !market.gateway) === true,
      'a catalogue without gateway ids stored',
      25_000,
      200,
    );
    // Loaded by the running pipelines, it must not take their trade feeds away (their first write
    // waits 5 s at most, so a pipeline opened without a trade feed would show by now).
    await sleep(6_000);
    const before = await stack.store.readHeads(LISTED);
    expect([...before.values()].map((head) => head.tradeFeed)).not.toContain('unavailable');

    await stack.redis!.restart();
    await waitFor(
      async () => {
        const heads = await stack.store.readHeads(LISTED).catch(() => new Map());
        return [...heads.values()].some((head) => head.tradeFeed === 'unavailable');
      },
      'pipelines without a trade feed',
      20_000,
      200,
    );
    await setFault(stack.sandbox, 'drop-connections', false);
    await expectConverges(stack.sandbox, stack.store, LISTED, 40_000);
    const heads = await stack.store.readHeads(LISTED);
    expect([...heads.values()].map((head) => head.tradeFeed)).not.toContain('unavailable');
  }, 120_000);
});
