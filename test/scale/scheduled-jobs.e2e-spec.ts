import { DAY_MS } from '../../src/market/trade-window';
import { StoreKeys } from '../../src/store/keys';
import { LuaScript } from '../../src/store/lua-script';
import { encodeTradeFields } from '../../src/store/trade-fields-codec';
import { TRADE_HISTORY_LUA } from '../../src/store/trade-history';
import { waitFor } from '../support/fault-run';
import { readMetrics } from '../support/metrics-text';
import { counterTotal } from './support/cluster-view';
import { ScaleStack } from './support/scale-stack';

const PERIOD_MS = 2_000;
const JOBS = ['catalog-refresh', 'book-verify', 'candle-refresh', 'trade-trim'];

/** Adds trades (`time fields ...`) to an instrument's trade history beside what its writer keeps there. */
const ADD_TO_HISTORY = new LuaScript(`
${TRADE_HISTORY_LUA}
return addToMinutes(KEYS[1], parseTrades(ARGV[1]))
`);

interface RestStats {
  readonly served: number;
  readonly limited: number;
  readonly failed: number;
}

/**
 * The scheduled jobs of three ingest replicas on one Redis, every job due every two seconds: each
 * runs once per interval across the replicas (not once per replica), and together the replicas'
 * REST calls (catalogue, book checks, candles: more than the exchange allows) stay within the
 * exchange's limits, as the sandbox counts them.
 */
describe('scheduled jobs across three ingest replicas', () => {
  let stack: ScaleStack;
  let listed: string[];

  beforeAll(async () => {
    stack = await ScaleStack.start({
      ingest: 3,
      // Without the gateway login there is no trade feed: every owner refreshes its candles over REST.
      credentials: false,
      ingestTuning: {
        catalogRefreshMs: PERIOD_MS,
        bookVerifyIntervalMs: PERIOD_MS,
        candleRefreshMs: PERIOD_MS,
        tradeTrimIntervalMs: PERIOD_MS,
      },
    });
    listed = await stack.untilOwned();
  }, 120_000);
  afterAll(() => stack?.close(), 30_000);

  /** Runs of each job so far, summed over the replicas. */
  async function jobRuns(): Promise<Record<string, number>> {
    const samples = await Promise.all(stack.ingest.map((replica) => readMetrics(replica.url)));
    return Object.fromEntries(
      JOBS.map((job) => [
        job,
        samples.reduce((sum, replica) => sum + counterTotal(replica, 'mdg_job_runs_total', { job }), 0),
      ]),
    );
  }

  async function restStats(): Promise<Record<'frontoffice' | 'marketdata', RestStats>> {
    const response = await fetch(`${stack.sandbox.baseUrl}/sandbox/stats`);
    return (await response.json()) as Record<'frontoffice' | 'marketdata', RestStats>;
  }

  it('runs each job once per interval in all, and keeps the REST calls of all replicas within the limits', async () => {
    // The time taken brackets both counts, so that the bounds below hold however slow the reads are.
    const started = Date.now();
    const before = await jobRuns();
    const restBefore = await restStats();
    // Runs come late on a loaded machine, so wait for five of each; more than one per interval since
    // (one more either way for where the window fell) would be a job run on several replicas.
    const runsSince = async () => {
      const now = await jobRuns();
      return JOBS.map((job) => now[job] - before[job]);
    };
    await waitFor(
      async () => (await runsSince()).every((runs) => runs >= 5),
      'five runs of each job',
      40_000,
    );
    const runs = await runsSince();
    const restAfter = await restStats();
    const elapsed = Date.now() - started;

    const intervals = elapsed / PERIOD_MS;
    JOBS.forEach((job, index) => {
      if (process.env.SCALE_REPORT)
        process.stdout.write(
          `${job}: ${runs[index]} runs in ${elapsed} ms (${intervals.toFixed(1)} intervals)\n`,
        );
      expect(runs[index]).toBeLessThanOrEqual(Math.ceil(intervals) + 1);
    });
    // Nothing was refused by the rate limit, although the owners asked for more than it allows.
    for (const family of ['frontoffice', 'marketdata'] as const) {
      expect({ family, ...restAfter[family] }).toEqual({
        family,
        served: expect.any(Number),
        limited: 0,
        failed: 0,
      });
    }
    const depthAndCandles = restAfter.marketdata.served - restBefore.marketdata.served;
    if (process.env.SCALE_REPORT)
      process.stdout.write(`REST /marketdata/ calls: ${depthAndCandles} in ${elapsed} ms, none limited\n`);
    // Checks and candle refreshes did happen, and no faster than the limit of 2 per second.
    expect(depthAndCandles).toBeGreaterThan(0);
    expect(depthAndCandles).toBeLessThanOrEqual((2 * elapsed) / 1_000 + 2);
  }, 60_000);

  it('trims trades older than 24 hours, also of a market that no replica writes', async () => {
    const catalog = await stack.reader.readCatalog();
    const hidden = catalog!.markets.find((market) => market.hidden)!.instrument;
    const keys = new StoreKeys();
    const now = Date.now();
    const trade = (id: string, time: number) => ({
      id,
      instrument: hidden,
      price: '1',
      amount: '1',
      side: 'buy' as const,
      time,
    });
    const old = trade('old-1', now - DAY_MS - 60_000);
    const recent = trade('recent-1', now - 60_000);
    const planted = [old, recent].map((each) => `${each.time} ${encodeTradeFields(each)}`).join(' ');
    const added = await ADD_TO_HISTORY.runAll(
      stack.admin,
      [hidden, listed[0]].map((instrument) => ({
        keys: [keys.instrument(instrument).tradeHistory],
        args: [planted],
        group: instrument,
      })),
    );
    expect(added).toEqual([2, 2]);
    const holdsOld = async (instrument: string): Promise<boolean> =>
      (await stack.reader.readTrades(instrument)).some(({ id }) => id === old.id);
    await waitFor(
      async () => !(await holdsOld(hidden)) && !(await holdsOld(listed[0])),
      'old trades trimmed',
      3 * PERIOD_MS,
      100,
    );
    expect((await stack.reader.readTrades(hidden)).map(({ id }) => id)).toEqual(['recent-1']);
  }, 30_000);
});
