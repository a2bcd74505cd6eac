import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { budgetKeys } from '../../src/upstream/rest/redis-budget-scripts';
import { RedisRequestBudget } from '../../src/upstream/rest/redis-request-budget';
import { RestFamily } from '../../src/upstream/rest/request-budget';
import { startRedisCluster, TestRedisCluster } from '../support/redis-cluster';
import {
  countedPermits,
  hammer,
  MIN_OCCUPIED_SHARE,
  mostInOneWindow,
  occupiedMs,
} from '../upstream/redis-request-budget-spans';

const WINDOW_MS = 300;
const MARGIN_MS = 10;
const HOLD_MS = WINDOW_MS + MARGIN_MS;
const LIMITS: Record<RestFamily, number> = { frontoffice: 2, marketdata: 3 };

let cluster: TestRedisCluster;

beforeAll(async () => {
  cluster = await startRedisCluster();
});

afterAll(async () => {
  await cluster?.stop();
});

describe('RedisRequestBudget on a Redis Cluster', () => {
  const prefix = `cluster-budget-${randomUUID().slice(0, 8)}`;
  const warnings: string[] = [];
  let budgets: RedisRequestBudget[];

  beforeAll(async () => {
    // Three replicas, each seeded with a different node, as `REDIS_CLUSTER=true` builds them: at most
    // one of them is seeded with the node that serves a family's slot.
    budgets = cluster.urls.map((url) =>
      RedisRequestBudget.fromConfig(
        { REDIS_URL: url, REDIS_CLUSTER: true, REDIS_PREFIX: prefix },
        {
          limits: LIMITS,
          windowMs: WINDOW_MS,
          marginMs: MARGIN_MS,
          logger: { warn: (message) => warnings.push(message) },
        },
      ),
    );
    expect(await Promise.all(budgets.map((budget) => budget.connected(5000)))).toEqual([true, true, true]);
  });

  afterAll(async () => {
    await Promise.all(budgets.map((budget) => budget.close()));
  });

  it('keeps the keys of each family in one slot, so that its scripts run on the cluster', async () => {
    const admin = new Redis(cluster.urls[0]);
    try {
      for (const family of ['frontoffice', 'marketdata'] as const) {
        const keys = Object.values(budgetKeys(prefix, family));
        const slots = await Promise.all(keys.map((key) => admin.call('CLUSTER', 'KEYSLOT', key)));
        expect(new Set(slots).size).toBe(1);
      }
    } finally {
      admin.disconnect();
    }
  });

  it('never lets more than the limit count in any window, in both families at once, and keeps close to it', async () => {
    const durationMs = 3000;
    const maxHoldMs = 40;
    const [frontoffice, marketdata] = await Promise.all(
      (['frontoffice', 'marketdata'] as const).map((family) =>
        hammer(budgets, family, { workers: 2, durationMs, maxHoldMs }),
      ),
    );
    for (const [family, spans] of [
      ['frontoffice', frontoffice],
      ['marketdata', marketdata],
    ] as const) {
      const limit = LIMITS[family];
      expect(mostInOneWindow(spans, WINDOW_MS)).toBeLessThanOrEqual(limit);
      // Capacity lost handing permits over; the requests' own durations do not count against it.
      expect(occupiedMs(spans, HOLD_MS)).toBeGreaterThan(MIN_OCCUPIED_SHARE * limit * durationMs);
      for (const replica of [0, 1, 2]) {
        expect(spans.filter((span) => span.replica === replica).length).toBeGreaterThan(spans.length / 6);
      }
    }
    expect(warnings).toEqual([]);
  });

  it('frees the permit of a crashed holder after its lease', async () => {
    const leaseMs = 700;
    const crashed = RedisRequestBudget.fromConfig(
      { REDIS_URL: cluster.urls[2], REDIS_CLUSTER: true, REDIS_PREFIX: `${prefix}-crash` },
      { windowMs: WINDOW_MS, marginMs: MARGIN_MS, leaseMs, limits: { frontoffice: 1 } },
    );
    const survivor = RedisRequestBudget.fromConfig(
      { REDIS_URL: cluster.urls[0], REDIS_CLUSTER: true, REDIS_PREFIX: `${prefix}-crash` },
      { windowMs: WINDOW_MS, marginMs: MARGIN_MS, leaseMs, limits: { frontoffice: 1 } },
    );
    const admin = new Redis.Cluster([
      { host: new URL(cluster.urls[0]).hostname, port: Number(new URL(cluster.urls[0]).port) },
    ]);
    try {
      await Promise.all([crashed.connected(5000), survivor.connected(5000)]);
      await crashed.acquire('frontoffice');
      // It stops without releasing, as a killed process would: no release, no renewal.
      await crashed.close();
      const permitsKey = budgetKeys(`${prefix}-crash`, 'frontoffice').permits;
      const crashedPermits = await countedPermits(admin, permitsKey);
      expect(crashedPermits.size).toBe(1);
      const [[crashedSeat, crashedUntil]] = [...crashedPermits];
      const permit = await survivor.acquire('frontoffice');
      // Granted only once the crashed permit's lease, never renewed since, had run out: the
      // survivor's lease starts no earlier than the end of the crashed one.
      const permits = await countedPermits(admin, permitsKey);
      expect(permits.has(crashedSeat)).toBe(false);
      expect(permits.size).toBe(1);
      expect([...permits.values()][0]).toBeGreaterThanOrEqual(crashedUntil + leaseMs - 0.01);
      permit.release();
    } finally {
      admin.disconnect();
      await Promise.all([crashed.close(), survivor.close()]);
    }
  });
});
