import { LISTED } from '../support/fault-cases';
import { waitFor } from '../support/fault-run';
import { readMetrics, sampleValue } from '../support/metrics-text';
import { startTestStack, TestStack } from '../support/start-test-stack';
import { expectConverges, readTruth, setFlow } from '../support/truth';

const OPEN = LISTED.filter((instrument) => instrument !== 'ltc_btc' && instrument !== 'xrp_usdt');

/**
 * Without a gateway login there is no trade feed: the books still come live from the hub, and the
 * 24-hour statistics are estimated from candles and level 1, with the exchange's last trade price.
 */
describe('ingest without gateway credentials', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startTestStack({
      sandbox: { SANDBOX_FLOW_RATE: '20' },
      tuning: { candleRefreshMs: 1000 },
      credentials: false,
    });
  });
  afterAll(() => stack.close());

  it('books equal the truth at the same version, live from the hub', async () => {
    await expectConverges(stack.sandbox, stack.store, LISTED, 15_000, { trades: false });
    const metrics = await readMetrics(stack.app.url);
    for (const instrument of LISTED)
      expect(sampleValue(metrics, 'mdg_book_sync_state', { instrument, state: 'live' })).toBe(1);
  });

  it('heads say the trade feed is unavailable; statistics come from candles with the last trade price', async () => {
    await setFlow(stack.sandbox, 0);
    const lastPrices = new Map<string, string>();
    for (const instrument of OPEN) {
      const trades = (await readTruth(stack.sandbox, instrument)).trades;
      lastPrices.set(instrument, trades[trades.length - 1].price);
    }
    await waitFor(async () => {
      const heads = await stack.store.readHeads(OPEN);
      return OPEN.every((instrument) => {
        const head = heads.get(instrument);
        return (
          head !== undefined &&
          head.stats.last === lastPrices.get(instrument) &&
          head.stats.baseVolume !== '0'
        );
      });
    }, 'every open market estimated from candles with its last trade price');
    const heads = await stack.store.readHeads(LISTED);
    for (const instrument of LISTED) {
      expect(heads.get(instrument)).toMatchObject({ tradeFeed: 'unavailable', stats: { source: 'candles' } });
      expect(await stack.store.readTrades(instrument)).toEqual([]);
    }
    for (const instrument of OPEN) {
      const stats = heads.get(instrument)!.stats;
      expect(stats.last).toBe(lastPrices.get(instrument));
      expect(stats.tradeCount).toBe(0);
    }
  });
});
