import { LISTED } from '../support/fault-cases';
import { sleep, waitFor } from '../support/fault-run';
import { startTestStack, TestStack } from '../support/start-test-stack';
import { expectConverges, setFault } from '../support/truth';

/**
 * How long a catalogue refresh waits for the gateway before it does without: short, so that the
 * refreshes during the outage come quickly, yet long enough that a connected gateway always answers.
 */
const GATEWAY_WAIT_MS = 2_000;

/**
 * The gateway's ids in the catalogue are what trade feeds are opened with. A refresh while the
 * gateway is out of reach keeps those of the last refresh; a catalogue without them (stored by a
 * replica that never reached the gateway) leaves running trade feeds alone, and pipelines opened
 * from it without a trade feed are opened again once a catalogue brings the ids back.
 */
describe('catalogues and the gateway ids', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startTestStack({
      sandbox: { SANDBOX_FLOW_RATE: '10' },
      tuning: { catalogRefreshMs: 2000, leaseTtlMs: 2000, catalogGatewayWaitMs: GATEWAY_WAIT_MS },
    });
    await expectConverges(stack.sandbox, stack.store, LISTED, 20_000);
  }, 60_000);
  afterAll(() => stack?.close());

  const tradeFeeds = async () =>
    [...(await stack.store.readHeads(LISTED).catch(() => new Map())).values()].map(
      (head: { tradeFeed: string }) => head.tradeFeed,
    );

  it('keeps the ids through a refresh while the gateway is out of reach', async () => {
    const cutAt = Date.now();
    await setFault(stack.sandbox, 'drop-connections', true);
    await waitFor(
      async () => ((await stack.store.readCatalog())?.refreshedAt ?? 0) > cutAt + GATEWAY_WAIT_MS + 500,
      'a catalogue refreshed while the gateway was out of reach',
      30_000,
      200,
    );
    const catalog = (await stack.store.readCatalog())!;
    expect(catalog.markets.filter((market) => !market.gateway)).toEqual([]);
  }, 40_000);

  it('leaves trade feeds alone without the ids, and opens them again once the ids are back', async () => {
    // No refresh gets through meanwhile, so that the catalogue without the ids stays the newest; one
    // that read the markets before the fault publishes once its wait for the gateway is over.
    await setFault(stack.sandbox, 'rest-503', true);
    await sleep(GATEWAY_WAIT_MS + 2_000);
    const catalog = (await stack.store.readCatalog())!;
    await stack.store.writeCatalog({
      ...catalog,
      markets: catalog.markets.map(({ gateway: _, ...market }) => market),
      refreshedAt: Date.now(),
    });
    // A pipeline opened again without its trade feed would show by now: its first write waits 5 s at most.
    await sleep(6_000);
    expect(await tradeFeeds()).not.toContain('unavailable');

    // Every lease lost: the pipelines are opened again from the catalogue without the ids.
    await stack.redis!.restart();
    await waitFor(
      async () => (await tradeFeeds()).includes('unavailable'),
      'pipelines without a trade feed',
      20_000,
      200,
    );
    await setFault(stack.sandbox, 'rest-503', false);
    await setFault(stack.sandbox, 'drop-connections', false);
    await expectConverges(stack.sandbox, stack.store, LISTED, 40_000);
    // The books may be back before a refresh brought the ids back; the feeds open after it.
    await waitFor(
      async () => !(await tradeFeeds()).includes('unavailable'),
      'every trade feed open again',
      20_000,
      200,
    );
  }, 120_000);
});
