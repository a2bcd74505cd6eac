import { Logger } from '@nestjs/common';
import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { Registry } from 'prom-client';
import { JobConnections } from '../../src/scheduler/bullmq-connection';
import { BullMqJobScheduler, JOB_QUEUE } from '../../src/scheduler/bullmq-job-scheduler';
import { JobMetrics } from '../../src/scheduler/job-metrics';
import { ScheduledJob } from '../../src/scheduler/scheduled-job';
import { bullmqPrefix } from '../../src/store/redis-connection';
import { sleep, waitFor } from '../support/fault-run';
import { startRedisCluster, TestRedisCluster } from '../support/redis-cluster';
import { startRedisServer, TestRedisServer } from '../support/redis-server';

interface Replica {
  readonly scheduler: BullMqJobScheduler;
  readonly runs: Map<string, number>;
}

/** Replicas of the service, each with its scheduler and its own count of the jobs it ran. */
function startReplicas(
  location: { REDIS_URL: string; REDIS_CLUSTER: boolean },
  prefix: string,
  count: number,
  jobs: (runs: Map<string, number>) => ScheduledJob[],
  checkMs?: number,
): Replica[] {
  return Array.from({ length: count }, () => {
    const runs = new Map<string, number>();
    const scheduler = new BullMqJobScheduler({
      connections: new JobConnections(location),
      prefix: bullmqPrefix({ REDIS_PREFIX: prefix, REDIS_CLUSTER: location.REDIS_CLUSTER }),
      metrics: new JobMetrics(new Registry()),
      checkMs,
    });
    scheduler.start(jobs(runs));
    return { scheduler, runs };
  });
}

/** Every replica's runs in the order they started and ended, as `name:start` and `name:end`. */
let runSteps: string[] = [];

const counting =
  (name: string, everyMs: number, workMs = 0) =>
  (runs: Map<string, number>): ScheduledJob => ({
    name,
    everyMs,
    run: async () => {
      runSteps.push(`${name}:start`);
      runs.set(name, (runs.get(name) ?? 0) + 1);
      if (workMs > 0) await sleep(workMs);
      runSteps.push(`${name}:end`);
    },
  });

const total = (replicas: readonly Replica[], name: string) =>
  replicas.reduce((sum, { runs }) => sum + (runs.get(name) ?? 0), 0);

/**
 * Waits until `name` has run `runs` times in all, then checks that no run started while another was
 * under way: a job run by every replica would start on each at the same moments. Each run takes a
 * while (`workMs` well under the interval), so that such runs overlap.
 */
async function expectOncePerInterval(
  replicas: readonly Replica[],
  name: string,
  runs: number,
): Promise<void> {
  await waitFor(() => total(replicas, name) >= runs, `${runs} runs of ${name}`, 20_000, 10);
  const steps = runSteps
    .filter((step) => step.startsWith(`${name}:`))
    .map((step) => step.slice(name.length + 1));
  const alternating = steps.map((_, index) => (index % 2 === 0 ? 'start' : 'end'));
  expect(steps).toEqual(alternating);
}

describe('BullMQ job scheduler shared by replicas', () => {
  let redis: TestRedisServer;
  let replicas: Replica[] = [];

  beforeAll(async () => {
    // Redis killed and emptied on purpose: the schedulers' warnings are expected, the assertions read the runs.
    Logger.overrideLogger(false);
    redis = await startRedisServer();
  });
  afterEach(async () => {
    await Promise.all(replicas.map(({ scheduler }) => scheduler.stop()));
    replicas = [];
    runSteps = [];
  });
  afterAll(() => redis.stop());

  it('runs each job once per interval in all, on whichever replica, at start and then every interval', async () => {
    const location = { REDIS_URL: redis.url, REDIS_CLUSTER: false };
    replicas = startReplicas(location, 'jobs-once', 3, (runs) => [
      counting('fast', 500, 100)(runs),
      counting('slow', 1_000, 300)(runs),
    ]);
    await Promise.all([
      expectOncePerInterval(replicas, 'fast', 6),
      expectOncePerInterval(replicas, 'slow', 3),
    ]);
  });

  it('registers schedulers idempotently under stable ids and removes those no longer known', async () => {
    const location = { REDIS_URL: redis.url, REDIS_CLUSTER: false };
    const admin = new Queue(JOB_QUEUE, { connection: { url: redis.url }, prefix: 'jobs-ids' });
    try {
      await admin.upsertJobScheduler('retired', { every: 60_000 });
      replicas = startReplicas(location, 'jobs-ids', 2, (runs) => [
        counting('a', 60_000)(runs),
        counting('b', 60_000)(runs),
      ]);
      let ids: string[] = [];
      for (let tries = 0; tries < 50; tries++) {
        ids = (await admin.getJobSchedulers()).map((scheduler) => scheduler.key).sort();
        if (ids.join() === 'a,b') break;
        await sleep(100);
      }
      expect(ids).toEqual(['a', 'b']);
      await waitFor(() => total(replicas, 'a') > 0 && total(replicas, 'b') > 0, 'the runs at start');
      // Time for a second replica's run at start to show, had it made one.
      await sleep(500);
      // Two replicas registered the same schedulers: each job still ran once, at start.
      expect([total(replicas, 'a'), total(replicas, 'b'), total(replicas, 'retired')]).toEqual([1, 1, 0]);
    } finally {
      await admin.close();
    }
  });

  it('runs a job once more on request, however many replicas ask while it waits', async () => {
    const location = { REDIS_URL: redis.url, REDIS_CLUSTER: false };
    replicas = startReplicas(location, 'jobs-soon', 3, (runs) => [counting('refresh', 60_000, 500)(runs)]);
    await waitFor(() => total(replicas, 'refresh') > 0, 'the run at start');
    await Promise.all(replicas.map(({ scheduler }) => scheduler.runSoon('refresh')));
    await waitFor(() => total(replicas, 'refresh') > 1, 'the run on request');
    // Time for more runs to show, had each request made one.
    await sleep(1_000);
    expect(total(replicas, 'refresh')).toBe(2);
    await expect(replicas[0].scheduler.runSoon('unknown')).rejects.toThrow('no scheduled job unknown');
  });

  it('registers the schedulers again when Redis lost them', async () => {
    const location = { REDIS_URL: redis.url, REDIS_CLUSTER: false };
    replicas = startReplicas(location, 'jobs-lost', 2, (runs) => [counting('tick', 500)(runs)], 300);
    await waitFor(() => total(replicas, 'tick') > 0, 'the run at start');
    const admin = new Redis(redis.url);
    try {
      // A restart without persistence, as far as the queue can tell.
      for (const key of await admin.keys('jobs-lost:*')) await admin.del(key);
    } finally {
      admin.disconnect();
    }
    const afterLoss = total(replicas, 'tick');
    await waitFor(() => total(replicas, 'tick') >= afterLoss + 2, 'runs after the loss');
  });

  it('waits for a job under way when it stops', async () => {
    let finished = false;
    replicas = startReplicas({ REDIS_URL: redis.url, REDIS_CLUSTER: false }, 'jobs-stop', 1, (runs) => [
      {
        name: 'long',
        everyMs: 60_000,
        run: async () => {
          runs.set('long', 1);
          await sleep(1_000);
          finished = true;
        },
      },
    ]);
    await waitFor(() => total(replicas, 'long') > 0, 'the run at start');
    await replicas[0].scheduler.stop();
    expect(finished).toBe(true);
    replicas = [];
  });

  // Last of the tests on this server: it restarts it empty.
  it('stops while Redis is away, between two reconnection attempts', async () => {
    if (!redis.canKill) return;
    replicas = startReplicas({ REDIS_URL: redis.url, REDIS_CLUSTER: false }, 'jobs-away', 1, (runs) => [
      counting('tick', 60_000)(runs),
    ]);
    await waitFor(() => total(replicas, 'tick') > 0, 'the run at start');
    await redis.kill();
    // The attempts back off to 2 s apart, so the connections now spend nearly all their time between two.
    await sleep(3_000);
    await replicas[0].scheduler.stop();
    replicas = [];
    await redis.restart();
  });

  describe('on a Redis Cluster', () => {
    let cluster: TestRedisCluster;

    beforeAll(async () => {
      cluster = await startRedisCluster();
    }, 60_000);
    afterAll(() => cluster.stop());

    it('runs each job once per interval in all (the queue prefix is a hash tag, as its scripts need)', async () => {
      const location = { REDIS_URL: cluster.urls[0], REDIS_CLUSTER: true };
      replicas = startReplicas(location, 'jobs-cluster', 2, (runs) => [counting('fast', 500, 100)(runs)]);
      await expectOncePerInterval(replicas, 'fast', 5);
    });
  });
});
