import { ChartBar, historyBars, truthBars } from '../support/chart-truth';
import { FAST_SANDBOX, FAST_SANDBOX_TUNING, FAST_TUNING, FLOW, LISTED } from '../support/fault-cases';
import { runFault, sleep, waitFor } from '../support/fault-run';
import { startTestStack, TestStack } from '../support/start-test-stack';
import { expectConverges, readTruth, setFault, setFlow, TruthTrade } from '../support/truth';

const INSTRUMENT = 'btc_usdt';
const MINUTE_MS = 60_000;

/**
 * The 1-minute chart bars stay exact through the exchange's faults: once a fault has healed and the
 * market is still, every bar since the run began equals the bar recomputed from the exchange's own
 * trades, so that no trade is missing from a bar and none is counted twice.
 */
describe('chart bars through upstream faults', () => {
  let stack: TestStack;
  let firstMinute: number;

  beforeAll(async () => {
    stack = await startTestStack({
      sandbox: FAST_SANDBOX,
      sandboxTuning: FAST_SANDBOX_TUNING,
      tuning: FAST_TUNING,
    });
    firstMinute = Date.now() - (Date.now() % MINUTE_MS);
    await expectConverges(stack.sandbox, stack.store, LISTED, 15_000);
  }, 30_000);
  afterAll(() => stack?.close());

  /** Holds the market still until the gateway serves the exchange's newest trade. */
  async function settled(): Promise<void> {
    await expectConverges(stack.sandbox, stack.store, LISTED, 10_000);
    await setFlow(stack.sandbox, 0);
    const newest = newestTrade((await readTruth(stack.sandbox, INSTRUMENT)).trades);
    await waitFor(async () => {
      const response = await fetch(`${stack.app.url}/trades/${INSTRUMENT}`);
      const served = (await response.json()) as { tradeID: string }[];
      return served[0]?.tradeID === newest.id;
    }, "the exchange's newest trade served");
  }

  async function expectExactBars(path: string, minutes: number): Promise<void> {
    const truth = await readTruth(stack.sandbox, INSTRUMENT);
    const from = firstMinute - (firstMinute % (minutes * MINUTE_MS));
    const to = Math.floor(Date.now() / 1000);
    const expected = truthBars(truth.trades, minutes).filter((bar) => bar.time * 1000 >= from);
    const response = await fetch(
      `${stack.app.url}${path}?symbol=BTCUSDT&resolution=${minutes}&from=${from / 1000}&to=${to}`,
    );
    expect(response.status).toBe(200);
    const served: ChartBar[] = historyBars(await response.text()).filter((bar) => bar.time * 1000 >= from);
    expect(expected.length).toBeGreaterThan(0);
    expect(served).toEqual(expected);
  }

  it.each([
    [
      'every connection cut and refused for a while',
      () => runFault(stack.sandbox, 'drop-connections', { flowRate: FLOW, onMs: 1_000 }),
    ],
    [
      'the hub closed and reconnected',
      () =>
        runFault(stack.sandbox, 'hub-close', {
          flowRate: FLOW,
          onMs: 500,
          pulse: true,
          params: { allowReconnect: true },
        }),
    ],
    [
      // Few trades per subscription: each reconnect leaves a gap that the trade history fills.
      'a trades gap while the trade history is down, healed by snapshot and history',
      async () => {
        await setFault(stack.sandbox, 'trade-history-down', true);
        await runFault(stack.sandbox, 'drop-connections', { flowRate: FLOW, onMs: 1_000 });
        await setFault(stack.sandbox, 'trade-history-down', false);
      },
    ],
    [
      'sessions expired',
      () => runFault(stack.sandbox, 'expire-sessions', { flowRate: FLOW, onMs: 1_000, pulse: true }),
    ],
    [
      'Redis restarted empty while the market moves',
      async () => {
        await setFlow(stack.sandbox, FLOW);
        await stack.redis!.kill();
        await sleep(1_000);
        await stack.redis!.restart();
        await sleep(500);
      },
    ],
  ])(
    '1-minute bars exact after: %s',
    async (_title, fault) => {
      await setFlow(stack.sandbox, FLOW);
      await sleep(500);
      await fault();
      await settled();
      await expectExactBars('/tradingview/history', 1);
    },
    30_000,
  );

  it('5-minute UDF bars exact after all of them', async () => {
    await settled();
    await expectExactBars('/udf/history', 5);
  });
});

/** The latest trade: the latest time, and of those the highest id (ids count up). */
function newestTrade(trades: readonly TruthTrade[]): TruthTrade {
  const later = (a: TruthTrade, b: TruthTrade) =>
    a.time - b.time || a.id.length - b.id.length || (a.id > b.id ? 1 : a.id < b.id ? -1 : 0);
  return trades.reduce((newest, trade) => (later(trade, newest) > 0 ? trade : newest));
}
