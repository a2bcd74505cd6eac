import { IngestService } from '../../src/ingest/ingest-service';
import { MarketInfo } from '../../src/market/market-info';
import { LISTED } from '../support/fault-cases';
import { sleep, waitFor } from '../support/fault-run';
import { startTestStack, TestStack } from '../support/start-test-stack';
import { expectConverges, readTruth, setFault, setFlow } from '../support/truth';

const FLOW = 20;
/**
 * Refreshes run every second, each waiting for the exchange's 1 request/s limit on `/frontoffice/`;
 * on a machine busy with other suites one may take several seconds.
 */
const REFRESH_WAIT_MS = 15_000;

/**
 * A market halted or paused on the exchange stays listed, its book frozen and still stored; its
 * status in the stored catalogue follows the exchange at the next catalogue refresh, both ways.
 */
describe('a halted or paused market', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startTestStack({
      sandbox: { SANDBOX_FLOW_RATE: String(FLOW) },
      tuning: { catalogRefreshMs: 1000 },
    });
    await expectConverges(stack.sandbox, stack.store, LISTED, 15_000);
  });
  afterAll(() => stack.close());

  async function storedMarket(instrument: string): Promise<MarketInfo | undefined> {
    return (await stack.store.readCatalog())?.markets.find((market) => market.instrument === instrument);
  }

  it('stores the exchange-wide statuses of the built-in markets', async () => {
    expect((await storedMarket('btc_usdt'))?.status).toBe('Open');
    expect((await storedMarket('ltc_btc'))?.status).toBe('Halted');
    expect((await storedMarket('xrp_usdt'))?.status).toBe('Paused');
    expect(await storedMarket('doge_usdt')).toMatchObject({ hidden: true });
  });

  it.each([
    ['halt-market', 'Halted'],
    ['pause-market', 'Paused'],
  ])(
    '%s: listed, frozen, stored as %s at the next refresh; Open again after',
    async (fault, status) => {
      await setFlow(stack.sandbox, FLOW);
      await setFault(stack.sandbox, fault, true, { instrument: 'btc_usdt' });
      await waitFor(
        async () => (await storedMarket('btc_usdt'))?.status === status,
        `stored as ${status}`,
        REFRESH_WAIT_MS,
      );
      expect(await storedMarket('btc_usdt')).toMatchObject({ hidden: false });

      // Frozen: the market does not move while the others do.
      const frozenAt = (await readTruth(stack.sandbox, 'btc_usdt')).version;
      const othersAt = (await readTruth(stack.sandbox, 'eth_usdt')).version;
      await sleep(500);
      expect((await readTruth(stack.sandbox, 'btc_usdt')).version).toBe(frozenAt);
      expect((await readTruth(stack.sandbox, 'eth_usdt')).version).toBeGreaterThan(othersAt);
      await expectConverges(stack.sandbox, stack.store, LISTED);
      expect(
        stack.app.app
          .get(IngestService)
          .pipelines()
          .map((pipeline) => pipeline.instrument),
      ).toContain('btc_usdt');

      await setFault(stack.sandbox, fault, false, { instrument: 'btc_usdt' });
      await waitFor(
        async () => (await storedMarket('btc_usdt'))?.status === 'Open',
        'stored as Open',
        REFRESH_WAIT_MS,
      );
      await setFlow(stack.sandbox, FLOW);
      await waitFor(
        async () => (await readTruth(stack.sandbox, 'btc_usdt')).version > frozenAt,
        'btc_usdt moves again',
      );
      await expectConverges(stack.sandbox, stack.store, LISTED);
    },
    90_000,
  );
});
