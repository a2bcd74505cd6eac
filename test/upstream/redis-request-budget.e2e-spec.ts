import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { RedisClient } from '../../src/store/redis-client';
import { createRedisClient } from '../../src/store/redis-connection';
import { eventually } from '../../src/store/testing/state-store-contract';
import { budgetKeys } from '../../src/upstream/rest/redis-budget-scripts';
import { RedisRequestBudget, RedisRequestBudgetOptions } from '../../src/upstream/rest/redis-request-budget';
import { RequestPermit } from '../../src/upstream/rest/request-budget';
import { startRedisServer, TestRedisServer } from '../support/redis-server';
import {
  countedPermits,
  hammer,
  MIN_OCCUPIED_SHARE,
  mostInOneWindow,
  occupiedMs,
} from './redis-request-budget-spans';

/** A short window, so that a few seconds hold many windows' worth of permits. */
const WINDOW_MS = 300;
const MARGIN_MS = 10;
const HOLD_MS = WINDOW_MS + MARGIN_MS;

let server: TestRedisServer;
let admin: Redis;

beforeAll(async () => {
  server = await startRedisServer();
  admin = new Redis(server.url);
});

afterAll(async () => {
  admin.disconnect();
  await server.stop();
});

/** Budgets of one test, each with its own connection as a replica has, on one fresh prefix. */
class Replicas {
  readonly prefix = `budget-${randomUUID().slice(0, 8)}`;
  readonly warnings: string[] = [];
  private readonly budgets: RedisRequestBudget[] = [];
  private readonly clients: RedisClient[] = [];

  /** A budget whose connection is up. */
  async open(options: RedisRequestBudgetOptions = {}): Promise<RedisRequestBudget> {
    const client = this.connect();
    const budget = new RedisRequestBudget(client, {
      prefix: this.prefix,
      windowMs: WINDOW_MS,
      marginMs: MARGIN_MS,
      logger: { warn: (message) => this.warnings.push(message) },
      ...options,
    });
    this.budgets.push(budget);
    expect(await budget.connected(5000)).toBe(true);
    return budget;
  }

  /** A connection for a budget, kept to be closed after the test (or cut before, as by a crash). */
  connect(): RedisClient {
    const client = createRedisClient(
      { REDIS_URL: server.url, REDIS_CLUSTER: false },
      { maxReconnectDelayMs: 100, commandTimeoutMs: 1000 },
    );
    client.on('error', () => undefined);
    this.clients.push(client);
    return client;
  }

  async close(): Promise<void> {
    await Promise.all(this.budgets.map((budget) => budget.close()));
    for (const client of this.clients) client.disconnect();
  }
}

/** Resolves with the time the permit was granted, relative to `since`, and the permit. */
async function timedAcquire(
  budget: RedisRequestBudget,
  since: number,
  signal?: AbortSignal,
): Promise<{ at: number; permit: RequestPermit }> {
  const permit = await budget.acquire('frontoffice', signal);
  return { at: performance.now() - since, permit };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('RedisRequestBudget shared by replicas in one Redis', () => {
  let replicas: Replicas;

  beforeEach(async () => {
    replicas = new Replicas();
  });

  afterEach(async () => {
    await replicas.close();
  });

  it('never lets more than the limit count in any window, across replicas, and keeps close to it', async () => {
    const limit = 3;
    const budgets = await Promise.all([0, 1, 2].map(() => replicas.open({ limits: { marketdata: limit } })));
    const durationMs = 4000;
    const maxHoldMs = 60;
    const spans = await hammer(budgets, 'marketdata', { workers: 3, durationMs, maxHoldMs });

    expect(mostInOneWindow(spans, WINDOW_MS)).toBeLessThanOrEqual(limit);
    // Each permit is out for its request, however long a loaded machine made it, and one hold after
    // it; what is left of the limit's capacity is time lost handing permits over.
    expect(occupiedMs(spans, HOLD_MS)).toBeGreaterThan(MIN_OCCUPIED_SHARE * limit * durationMs);
    for (const replica of [0, 1, 2]) {
      expect(spans.filter((span) => span.replica === replica).length).toBeGreaterThan(spans.length / 6);
    }
    expect(replicas.warnings).toEqual([]);
  });

  it("reports every replica's permits while Redis answers, and its own when it does not", async () => {
    const [a, b] = await Promise.all([0, 1].map(() => replicas.open({ limits: { marketdata: 3 } })));
    await a.acquire('marketdata');
    const released = await b.acquire('marketdata');
    released.release();
    const marketdata = async (budget: RedisRequestBudget) =>
      (await budget.usage()).find((usage) => usage.family === 'marketdata');
    expect(await marketdata(a)).toEqual({
      family: 'marketdata',
      limit: 3,
      counting: 2,
      waiting: 0,
      scope: 'deployment',
    });
    await eventually(async () => expect(await marketdata(b)).toMatchObject({ counting: 1 }));

    if (!server.canKill) return;
    await server.kill();
    try {
      await eventually(async () =>
        expect(await marketdata(a)).toMatchObject({ counting: 1, scope: 'process' }),
      );
    } finally {
      await server.restart();
    }
  });

  it('serves waiting replicas in the order they came', async () => {
    const [a, b, c] = await Promise.all([0, 1, 2].map(() => replicas.open()));
    const start = performance.now();
    const held = await timedAcquire(a, start);
    const order: string[] = [];
    const queue = budgetKeys(replicas.prefix, 'frontoffice').queue;
    const waitFor = (name: string, budget: RedisRequestBudget) =>
      timedAcquire(budget, start).then((grant) => (order.push(name), grant));
    // Each comes once the one before holds its seat in the queue; the holder's own count keeps it
    // from taking a seat while its permit is out.
    const waits = [waitFor('b', b)];
    await eventually(async () => expect(await admin.zcard(queue)).toBe(1));
    waits.push(waitFor('c', c));
    await eventually(async () => expect(await admin.zcard(queue)).toBe(2));
    waits.push(waitFor('a', a));
    const releasedAt = performance.now() - start;
    held.permit.release();
    for (const wait of waits) void wait.then(({ permit }) => permit.release());
    const [bGrant] = await Promise.all(waits);
    expect(order).toEqual(['b', 'c', 'a']);
    expect(bGrant.at).toBeGreaterThanOrEqual(releasedAt + HOLD_MS - 5);
  });

  it('keeps the permit of a holder whose request outlasts the lease, and frees a crashed holder’s after the lease', async () => {
    const leaseMs = 700;
    const holder = await replicas.open({ leaseMs });
    const waiter = await replicas.open({ leaseMs });

    // Alive: the holder renews its lease, so a request three leases long keeps its permit.
    const start = performance.now();
    const long = await timedAcquire(holder, start);
    const waiting = timedAcquire(waiter, start);
    await sleep(3 * leaseMs);
    long.permit.release();
    const afterLong = await waiting;
    expect(afterLong.at).toBeGreaterThanOrEqual(3 * leaseMs + HOLD_MS - 5);
    afterLong.permit.release();
    await sleep(HOLD_MS + 20);

    // Crashed: a replica takes a permit and its connection is cut; nobody releases or renews.
    const crashedClient = replicas.connect();
    const crashed = new RedisRequestBudget(crashedClient, {
      prefix: replicas.prefix,
      windowMs: WINDOW_MS,
      marginMs: MARGIN_MS,
      leaseMs,
    });
    await crashed.connected(5000);
    await crashed.acquire('frontoffice');
    crashedClient.disconnect();
    const permitsKey = budgetKeys(replicas.prefix, 'frontoffice').permits;
    const crashedPermits = await countedPermits(admin, permitsKey);
    expect(crashedPermits.size).toBe(1);
    const [[crashedSeat, crashedUntil]] = [...crashedPermits];
    const afterCrash = await waiter.acquire('frontoffice');
    // Granted only once the crashed permit's lease, never renewed since, had run out: the waiter's
    // lease starts no earlier than the end of the crashed one.
    const permits = await countedPermits(admin, permitsKey);
    expect(permits.has(crashedSeat)).toBe(false);
    expect(permits.size).toBe(1);
    expect([...permits.values()][0]).toBeGreaterThanOrEqual(crashedUntil + leaseMs - 0.01);
    afterCrash.release();
    await crashed.close();
  });

  it('rejects an aborted wait at once, and the replica’s seat does not hold up those behind it', async () => {
    const [holder, quitter, patient] = await Promise.all([0, 1, 2].map(() => replicas.open()));
    const start = performance.now();
    const held = await timedAcquire(holder, start);
    const controller = new AbortController();
    const queue = budgetKeys(replicas.prefix, 'frontoffice').queue;
    const abandoned = timedAcquire(quitter, start, controller.signal);
    await eventually(async () => expect(await admin.zcard(queue)).toBe(1));
    const waiting = timedAcquire(patient, start);
    await eventually(async () => expect(await admin.zcard(queue)).toBe(2));

    const reason = new Error('shutting down');
    controller.abort(reason);
    // At once: before the event loop's next turn, so without waiting for Redis.
    const settledFirst = await Promise.race([
      abandoned.then(
        () => 'granted',
        (error: unknown) => (error === reason ? 'rejected' : error),
      ),
      new Promise((resolve) => setImmediate(() => resolve('next turn'))),
    ]);
    expect(settledFirst).toBe('rejected');
    // Its seat is withdrawn: only the patient replica's is left to wait on.
    await eventually(async () => expect(await admin.zcard(queue)).toBe(1));

    const releasedAt = performance.now() - start;
    held.permit.release();
    const granted = await waiting;
    expect(granted.at).toBeGreaterThanOrEqual(releasedAt + HOLD_MS - 5);
    granted.permit.release();
    await expect(quitter.acquire('frontoffice', AbortSignal.abort('gone'))).rejects.toBe('gone');
  });

  it('gives up the permit a caller abandoned while it was on its way, so it counts nothing', async () => {
    const budget = await replicas.open();
    const keys = budgetKeys(replicas.prefix, 'frontoffice');
    const controller = new AbortController();
    const abandoned = budget.acquire('frontoffice', controller.signal);
    // The pump has sent its take; the caller leaves before the answer comes back.
    controller.abort('late');
    await expect(abandoned).rejects.toBe('late');
    await eventually(async () => {
      expect(await admin.zcard(keys.permits)).toBe(0);
      expect(await admin.zcard(keys.queue)).toBe(0);
    });
    const next = await budget.acquire('frontoffice');
    expect(await admin.zcard(keys.permits)).toBe(1);
    next.release();
  });

  it('leaves only keys that expire by themselves', async () => {
    const [a, b] = await Promise.all([0, 1].map(() => replicas.open({ leaseMs: 1000 })));
    const start = performance.now();
    const held = await timedAcquire(a, start);
    const waiting = timedAcquire(b, start);
    const keys = budgetKeys(replicas.prefix, 'frontoffice');
    await eventually(async () =>
      expect((await admin.keys(`${replicas.prefix}:*`)).sort()).toEqual(
        [keys.permits, keys.queue, keys.seen].sort(),
      ),
    );
    held.permit.release();
    (await waiting).permit.release();
    for (const key of await admin.keys(`${replicas.prefix}:*`)) {
      const ttl = await admin.pttl(key);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(2040);
    }
  });

  // A server given by REDIS_URL cannot be taken down.
  const itWithPrivateServer = process.env.REDIS_URL ? it.skip : it;

  itWithPrivateServer(
    'keeps its own limits while Redis is down, and shares again once it is back',
    async () => {
      const [a, b] = await Promise.all([0, 1].map(() => replicas.open({ fallbackMs: 200 })));
      (await a.acquire('frontoffice')).release();

      await server.kill();
      try {
        // Alone: the permit just released still counts for one hold, then one per hold.
        const start = performance.now();
        const grants: number[] = [];
        for (let i = 0; i < 3; i++) {
          const { at, permit } = await timedAcquire(a, start);
          grants.push(at);
          permit.release();
        }
        expect(grants[1] - grants[0]).toBeGreaterThanOrEqual(HOLD_MS - 5);
        expect(grants[2] - grants[1]).toBeGreaterThanOrEqual(HOLD_MS - 5);
        // Not held up by Redis: waiting out the connection's command timeout (1000 ms) would take longer.
        expect(grants[2] - grants[0]).toBeLessThan(2 * HOLD_MS + 1000);
        expect(replicas.warnings.some((warning) => warning.includes('own requests'))).toBe(true);
      } finally {
        await server.restart();
      }
      await Promise.all([a.connected(5000), b.connected(5000)]);
      await sleep(300); // past the fallback period

      const start = performance.now();
      const held = await timedAcquire(a, start);
      const waiting = timedAcquire(b, start);
      await sleep(100);
      held.permit.release();
      const shared = await waiting;
      expect(shared.at).toBeGreaterThanOrEqual(100 + HOLD_MS - 5);
      shared.permit.release();
      expect(replicas.warnings.some((warning) => warning.includes('shared again'))).toBe(true);
    },
  );
});
