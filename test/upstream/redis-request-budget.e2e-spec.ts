import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { createRedisClient, RedisClient } from '../../src/store/redis-connection';
import { budgetKeys } from '../../src/upstream/rest/redis-budget-scripts';
import { RedisRequestBudget, RedisRequestBudgetOptions } from '../../src/upstream/rest/redis-request-budget';
import { RequestPermit } from '../../src/upstream/rest/request-budget';
import { eventually } from '../store/state-store.contract';
import { startRedisServer, TestRedisServer } from '../support/redis-server';
import { hammer, mostInOneWindow } from './redis-request-budget-spans';

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
    // Each permit is out for its request (30 ms on average) and one hold after it.
    const ideal = (limit * durationMs) / (HOLD_MS + maxHoldMs / 2);
    expect(spans.length).toBeGreaterThan(0.85 * ideal);
    for (const replica of [0, 1, 2]) {
      expect(spans.filter((span) => span.replica === replica).length).toBeGreaterThan(spans.length / 6);
    }
    expect(replicas.warnings).toEqual([]);
  });

  it('serves waiting replicas in the order they came', async () => {
    const [a, b, c] = await Promise.all([0, 1, 2].map(() => replicas.open()));
    const start = performance.now();
    const held = await timedAcquire(a, start);
    const order: string[] = [];
    const waits = [
      timedAcquire(b, start).then((grant) => (order.push('b'), grant)),
      sleep(50)
        .then(() => timedAcquire(c, start))
        .then((grant) => (order.push('c'), grant)),
      sleep(100)
        .then(() => timedAcquire(a, start))
        .then((grant) => (order.push('a'), grant)),
    ];
    await sleep(200);
    held.permit.release();
    for (const wait of waits) void wait.then(({ permit }) => permit.release());
    const [bGrant] = await Promise.all(waits);
    expect(order).toEqual(['b', 'c', 'a']);
    expect(bGrant.at).toBeGreaterThanOrEqual(200 + HOLD_MS - 5);
  });

  it('keeps the permit of a holder whose request outlasts the lease, and frees a crashed holder’s after the lease', async () => {
    const leaseMs = 700;
    const holder = await replicas.open({ leaseMs });
    const waiter = await replicas.open({ leaseMs });

    // Alive: the holder renews its lease, so a request three leases long keeps its permit.
    let start = performance.now();
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
    start = performance.now();
    const afterCrash = await timedAcquire(waiter, start);
    // The lease runs from the grant or the last renewal, a third of a lease apart at most.
    expect(afterCrash.at).toBeGreaterThan((2 / 3) * leaseMs - 50);
    expect(afterCrash.at).toBeLessThan(leaseMs + 300);
    afterCrash.permit.release();
    await crashed.close();
  });

  it('rejects an aborted wait at once, and the replica’s seat does not hold up those behind it', async () => {
    const [holder, quitter, patient] = await Promise.all([0, 1, 2].map(() => replicas.open()));
    const start = performance.now();
    const held = await timedAcquire(holder, start);
    const controller = new AbortController();
    const abandoned = timedAcquire(quitter, start, controller.signal);
    await sleep(50);
    const waiting = timedAcquire(patient, start);
    await sleep(100);

    const reason = new Error('shutting down');
    controller.abort(reason);
    const abortedAt = performance.now();
    await expect(abandoned).rejects.toBe(reason);
    expect(performance.now() - abortedAt).toBeLessThan(20);
    const queue = budgetKeys(replicas.prefix, 'frontoffice').queue;
    await eventually(async () => expect(await admin.zcard(queue)).toBe(1));

    await sleep(50);
    const releasedAt = performance.now() - start;
    held.permit.release();
    const granted = await waiting;
    expect(granted.at).toBeGreaterThanOrEqual(releasedAt + HOLD_MS - 5);
    expect(granted.at).toBeLessThan(releasedAt + HOLD_MS + 100);
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
    const start = performance.now();
    const next = await timedAcquire(budget, start);
    expect(next.at).toBeLessThan(50);
    next.permit.release();
  });

  it('leaves only keys that expire by themselves', async () => {
    const [a, b] = await Promise.all([0, 1].map(() => replicas.open({ leaseMs: 1000 })));
    const start = performance.now();
    const held = await timedAcquire(a, start);
    const waiting = timedAcquire(b, start);
    await sleep(100);
    const keys = budgetKeys(replicas.prefix, 'frontoffice');
    expect((await admin.keys(`${replicas.prefix}:*`)).sort()).toEqual(
      [keys.permits, keys.queue, keys.seen].sort(),
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
        expect(grants[2]).toBeLessThan(3 * HOLD_MS + 200);
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
