import { Queue } from 'bullmq';
import { JOB_QUEUE } from '../../src/scheduler/bullmq-job-scheduler';
import { eventually } from '../../src/store/testing/state-store-contract';
import { ApiLoad } from '../chaos/api-load';
import { LISTED } from '../support/fault-cases';
import { sleep } from '../support/fault-run';
import { startTestStack, TestStack } from '../support/start-test-stack';
import { expectConverges, setFlow } from '../support/truth';
import { PRIMARY_NAME, SentinelSet } from './sentinel-set';

const FLOW = 20;
const PATHS = ['/summary', '/ticker', '/orderbook/BTC_USDT?depth=20', '/trades/BTC_USDT', '/health/live'];

/**
 * The whole service on a replicated Redis behind three Sentinels, while aggregators poll the API and
 * the market moves: the primary fails over (forced, killed), and afterwards the store holds exactly
 * the exchange's books and trades, no API request failed, and no instrument had two owners. The
 * primary paused past the command timeout is a fault of the chaos suite on Sentinels, with three
 * ingest processes whose leases it watches.
 */
describe('a Redis behind Sentinels failing over', () => {
  let set: SentinelSet;
  let stack: TestStack;
  let load: ApiLoad;
  const ownersSeen = new Map<string, Set<string>>();
  let watchingOwners = true;
  let ownerWatch: Promise<void>;

  beforeAll(async () => {
    set = await SentinelSet.start({ downAfterMs: 1_000 });
    stack = await startTestStack({
      redis: false,
      sandbox: { SANDBOX_FLOW_RATE: String(FLOW) },
      app: {
        REDIS_URL: `redis://${PRIMARY_NAME}`,
        REDIS_SENTINELS: set.sentinelList,
        REDIS_SENTINEL_NAME: PRIMARY_NAME,
        // The load polls without pause; the per-client limit would answer it 429.
        RATE_LIMIT_PER_MINUTE: '0',
      },
      tuning: { redisCommandTimeoutMs: 1000 },
    });
    await expectConverges(stack.sandbox, stack.store, LISTED, 30_000);
    load = new ApiLoad(
      { urls: () => [stack.app.url], inOutage: () => false, outageEpoch: () => 0, context: () => 'failover' },
      PATHS,
      2,
    );
    load.start();
    ownerWatch = watchOwners();
  }, 60_000);

  afterAll(async () => {
    watchingOwners = false;
    await ownerWatch;
    await load?.stop();
    await stack?.close();
    await set?.stop();
  }, 30_000);

  /** Every owner any instrument's lease named, sampled through the failovers. */
  async function watchOwners(): Promise<void> {
    while (watchingOwners) {
      const view = await stack.store.readOwnership(LISTED).catch(() => undefined);
      for (const [instrument, owner] of view?.owners ?? []) {
        ownersSeen.set(instrument, (ownersSeen.get(instrument) ?? new Set()).add(owner));
      }
      await sleep(100);
    }
  }

  function expectNothingFailed(): void {
    const counts = load.counts();
    expect(counts.examples).toEqual([]);
    expect(counts.failed).toBe(0);
    expect(counts.served).toBeGreaterThan(0);
    for (const [instrument, owners] of ownersSeen) expect([instrument, owners.size]).toEqual([instrument, 1]);
  }

  it('a failover forced with SENTINEL FAILOVER while the market moves', async () => {
    await setFlow(stack.sandbox, FLOW);
    const old = await set.primary();
    await set.forceFailover();
    await set.untilFailedOver(old);
    await sleep(1_000);
    await expectConverges(stack.sandbox, stack.store, LISTED, 20_000);
    expectNothingFailed();
  }, 60_000);

  it('the primary killed under load', async () => {
    await setFlow(stack.sandbox, FLOW);
    await sleep(500);
    const old = await set.primary();
    await old.kill();
    const promoted = await set.untilFailedOver(old);
    await sleep(1_000);
    await expectConverges(stack.sandbox, stack.store, LISTED, 20_000);
    expectNothingFailed();
    // The job schedulers are in place on the new primary, for the next run of each job.
    const queue = new Queue(JOB_QUEUE, {
      connection: { host: '127.0.0.1', port: promoted.port },
      prefix: 'mdg',
    });
    try {
      // Registered again after the reconnection when the promoted replica had not received them.
      await eventually(
        async () => expect((await queue.getJobSchedulers()).length).toBeGreaterThan(0),
        10_000,
      );
    } finally {
      await queue.close();
    }
  }, 60_000);
});
