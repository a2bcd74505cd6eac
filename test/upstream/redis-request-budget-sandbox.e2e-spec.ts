import { randomUUID } from 'node:crypto';
import { RunningSandbox } from 'sandbox-exchange';
import { RedisRequestBudget } from '../../src/upstream/rest/redis-request-budget';
import { RequestBudget, RestFamily } from '../../src/upstream/rest/request-budget';
import { RestClient } from '../../src/upstream/rest/rest-client';
import { DEFAULT_MARGIN_MS, DEFAULT_WINDOW_MS } from '../../src/upstream/rest/token-bucket-budget';
import { startRedisServer, TestRedisServer } from '../support/redis-server';
import { startTestSandbox } from '../support/start-test-sandbox';

type Stats = Record<RestFamily, { served: number; limited: number; failed: number }>;

const REPLICAS = 3;
const DURATION_MS = 8_000;

async function stats(sandbox: RunningSandbox): Promise<Stats> {
  const response = await fetch(`${sandbox.baseUrl}/sandbox/stats`);
  expect(response.status).toBe(200);
  return (await response.json()) as Stats;
}

/**
 * `budget`, whose waits end when `stop` aborts. A request granted before is sent and answered in
 * full, so that every request the sandbox counts is one the test counts, however slow the machine.
 */
function until(stop: AbortSignal, budget: RequestBudget): RequestBudget {
  return {
    acquire: (family, signal) => budget.acquire(family, signal ? AbortSignal.any([signal, stop]) : stop),
    usage: () => budget.usage(),
  };
}

/** Calls `call` over and over until `stop` aborts; any failure but the stop fails the test. */
async function callUntil(stop: AbortSignal, call: () => Promise<unknown>): Promise<number> {
  let calls = 0;
  while (!stop.aborted) {
    try {
      await call();
      calls += 1;
    } catch (error) {
      if (error === stop.reason) break;
      throw error;
    }
  }
  return calls;
}

describe('RedisRequestBudget shared by three REST clients against the sandbox exchange', () => {
  let redis: TestRedisServer;
  let sandbox: RunningSandbox;
  const budgets: RedisRequestBudget[] = [];

  beforeAll(async () => {
    [redis, sandbox] = await Promise.all([
      startRedisServer(),
      startTestSandbox({ SANDBOX_FLOW_RATE: '0', SANDBOX_HISTORY_HOURS: '0.25' }),
    ]);
  });

  afterAll(async () => {
    await Promise.all(budgets.map((budget) => budget.close()));
    await sandbox?.close();
    await redis?.stop();
  });

  it('keeps all three within the exchange limits, taking turns', async () => {
    const prefix = `sandbox-${randomUUID().slice(0, 8)}`;
    const warnings: string[] = [];
    for (let replica = 0; replica < REPLICAS; replica++) {
      budgets.push(
        RedisRequestBudget.fromConfig(
          { REDIS_URL: redis.url, REDIS_CLUSTER: false, REDIS_PREFIX: prefix },
          { logger: { warn: (message) => warnings.push(message) } },
        ),
      );
    }
    expect(await Promise.all(budgets.map((budget) => budget.connected(5000)))).toEqual([true, true, true]);
    const instrument = sandbox.exchange.all()[0].spec.instrument;
    const before = await stats(sandbox);

    const stop = AbortSignal.timeout(DURATION_MS);
    // Every client has two callers waiting for the book and one for the market list at all times.
    const counts = await Promise.all(
      budgets.flatMap((budget) => {
        // One attempt per call: a 429 fails the call instead of being retried away.
        const client = new RestClient({
          baseUrl: sandbox.baseUrl,
          budget: until(stop, budget),
          retry: { maxAttempts: 1 },
        });
        return [
          callUntil(stop, () => client.depth(instrument)),
          callUntil(stop, () => client.depth(instrument)),
          callUntil(stop, () => client.info()),
        ];
      }),
    );

    const after = await stats(sandbox);
    const served = (family: RestFamily) => after[family].served - before[family].served;
    expect(after.frontoffice.limited - before.frontoffice.limited).toBe(0);
    expect(after.marketdata.limited - before.marketdata.limited).toBe(0);
    expect(after.frontoffice.failed - before.frontoffice.failed).toBe(0);
    expect(after.marketdata.failed - before.marketdata.failed).toBe(0);
    expect(served('frontoffice') + served('marketdata')).toBe(counts.reduce((sum, count) => sum + count, 0));

    // The limit's own ceiling: `limit` at once, then `limit` per window plus margin.
    const ceiling = (limit: number) =>
      limit * (1 + Math.floor(DURATION_MS / (DEFAULT_WINDOW_MS + DEFAULT_MARGIN_MS)));
    expect(served('frontoffice')).toBeLessThanOrEqual(ceiling(1));
    expect(served('marketdata')).toBeLessThanOrEqual(ceiling(2));
    // How close to them is a machine's speed as much as the budget's: request-budget-bench.ts.
    // The replicas took turns: all always waiting, they were served about equally.
    const perReplica = (pick: (own: number[]) => number) =>
      Array.from({ length: REPLICAS }, (_, replica) => pick(counts.slice(replica * 3, replica * 3 + 3)));
    for (const shares of [perReplica((own) => own[0] + own[1]), perReplica((own) => own[2])]) {
      expect(Math.max(...shares) - Math.min(...shares)).toBeLessThanOrEqual(2);
    }
    expect(warnings).toEqual([]);
  });
});
