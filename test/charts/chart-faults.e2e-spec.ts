import { ChartBar, compareTrades, historyBars, truthBars } from '../support/chart-truth';
import {
  FAST_SANDBOX,
  FAULT_CASES,
  FAST_SANDBOX_TUNING,
  FAST_TUNING,
  FLOW,
  LISTED,
} from '../support/fault-cases';
import { runFault, sleep, waitFor } from '../support/fault-run';
import { RunningSandbox } from 'sandbox-exchange';
import { StateStore } from '../../src/store/state-store';
import { LEASE_TTL_MS, ScaleStack } from '../scale/support/scale-stack';
import { startTestStack, TestStack } from '../support/start-test-stack';
import { expectConverges, readTruth, setFault, setFlow } from '../support/truth';

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

  const run = (): ChartRun => ({
    sandbox: stack.sandbox,
    store: stack.store,
    url: stack.app.url,
    listed: LISTED,
    firstMinute,
  });

  it.each([
    [
      'every connection cut and refused for a while',
      () => runFault(stack.sandbox, 'drop-connections', { flowRate: FLOW, onMs: 1_000 }),
    ],
    [
      'connections cut again and again while trades are backfilled',
      () => FAULT_CASES['drop-connections flapping'](stack.sandbox),
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
      await settled(run());
      await expectExactBars(run(), '/tradingview/history', 1);
    },
    30_000,
  );

  it('5-minute UDF bars exact after all of them', async () => {
    await settled(run());
    await expectExactBars(run(), '/udf/history', 5);
  });
});

/** Two ingest replicas on one Redis, charts from an API replica: one ingest is killed mid-flow, then restarted. */
describe('chart bars through an ingest replica killed', () => {
  let stack: ScaleStack;
  let listed: string[];
  let firstMinute: number;

  beforeAll(async () => {
    stack = await ScaleStack.start({ ingest: 2, api: 1, sandbox: FAST_SANDBOX });
    firstMinute = Date.now() - (Date.now() % MINUTE_MS);
    listed = await stack.untilOwned();
    await expectConverges(stack.sandbox, stack.reader, listed, 30_000);
  }, 60_000);
  afterAll(() => stack?.close(), 30_000);

  it('1-minute bars exact after the owner of the market is killed, and again once it is restarted and takes the market back', async () => {
    const run: ChartRun = {
      sandbox: stack.sandbox,
      store: stack.reader,
      url: stack.api[0].url,
      listed,
      firstMinute,
    };
    const ownerOf = async () => (await stack.view.leases([INSTRUMENT])).get(INSTRUMENT)?.owner;
    const killOwnerMidFlow = async () => {
      const owner = await ownerOf();
      const victim = stack.ingest.find((replica) => replica.name === owner)!;
      const survivor = stack.ingest.find((replica) => replica !== victim)!;
      await setFlow(stack.sandbox, FLOW);
      await sleep(500);
      victim.signal('SIGKILL');
      await waitFor(
        async () => (await ownerOf()) === survivor.name,
        'the market taken over',
        LEASE_TTL_MS + 10_000,
        100,
      );
      return victim;
    };

    const victim = await killOwnerMidFlow();
    await settled(run);
    await expectExactBars(run, '/tradingview/history', 1);

    const restarted = await stack.restartIngest(victim);
    await waitFor(
      async () =>
        (await stack.view.ownersOf(listed)).get(restarted.name)?.length === Math.floor(listed.length / 2) &&
        (await stack.view.exactlyOneLiveOwner(listed, stack.ingest)).ok,
      'the restarted replica live on its share of the markets',
      30_000,
      200,
    );
    await killOwnerMidFlow();
    await settled(run);
    await expectExactBars(run, '/tradingview/history', 1);
  }, 60_000);
});

/** One stack's parts that the bars are checked through. */
interface ChartRun {
  readonly sandbox: RunningSandbox;
  readonly store: StateStore;
  /** The gateway that serves the charts. */
  readonly url: string;
  readonly listed: readonly string[];
  /** Start of the minute the run began in (Unix ms). */
  readonly firstMinute: number;
}

/** Holds the market still until the gateway serves the exchange's newest trade. */
async function settled(run: ChartRun): Promise<void> {
  await expectConverges(run.sandbox, run.store, run.listed, 10_000);
  await setFlow(run.sandbox, 0);
  const newest = [...(await readTruth(run.sandbox, INSTRUMENT)).trades].sort(compareTrades).at(-1)!;
  await waitFor(async () => {
    const response = await fetch(`${run.url}/trades/${INSTRUMENT}`);
    const served = (await response.json()) as { tradeID: string }[];
    return served[0]?.tradeID === newest.id;
  }, "the exchange's newest trade served");
}

/** Every bar of `minutes` since the run began, as served at `path`, equals the truth's: none missing, none extra. */
async function expectExactBars(run: ChartRun, path: string, minutes: number): Promise<void> {
  const truth = await readTruth(run.sandbox, INSTRUMENT);
  const from = run.firstMinute - (run.firstMinute % (minutes * MINUTE_MS));
  const to = Math.floor(Date.now() / 1000);
  const expected = truthBars(truth.trades, minutes).filter((bar) => bar.time * 1000 >= from);
  const response = await fetch(
    `${run.url}${path}?symbol=BTCUSDT&resolution=${minutes}&from=${from / 1000}&to=${to}`,
  );
  expect(response.status).toBe(200);
  const served: ChartBar[] = historyBars(await response.text()).filter((bar) => bar.time * 1000 >= from);
  expect(expected.length).toBeGreaterThan(0);
  expect(served).toEqual(expected);
}
