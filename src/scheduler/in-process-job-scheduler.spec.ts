import { SchedulerRegistry } from '@nestjs/schedule';
import { Registry } from 'prom-client';
import { InProcessJobScheduler } from './in-process-job-scheduler';
import { JobMetrics } from './job-metrics';

describe('InProcessJobScheduler', () => {
  let registry: Registry;
  let intervals: SchedulerRegistry;
  let scheduler: InProcessJobScheduler;
  let warnings: string[];

  beforeEach(() => {
    jest.useFakeTimers();
    registry = new Registry();
    intervals = new SchedulerRegistry();
    warnings = [];
    scheduler = new InProcessJobScheduler(intervals, new JobMetrics(registry), {
      warn: (message) => warnings.push(message),
    });
  });
  afterEach(async () => {
    await scheduler.stop();
    jest.useRealTimers();
  });

  const runs = async (job: string, result: string) =>
    (await registry.getSingleMetric('mdg_job_runs_total')!.get()).values.find(
      (value) => value.labels.job === job && value.labels.result === result,
    )?.value ?? 0;

  it('runs each job at start and then once per interval, on a named interval of the registry', async () => {
    let count = 0;
    scheduler.start([{ name: 'tick', everyMs: 1_000, run: async () => void count++ }]);
    expect(intervals.getIntervals()).toEqual(['job:tick']);
    await jest.advanceTimersByTimeAsync(3_500);
    expect(count).toBe(4);
    expect(await runs('tick', 'ok')).toBe(4);
  });

  it('skips a tick while the previous run is still going, and runs once more on request', async () => {
    let started = 0;
    let finish: (() => void)[] = [];
    scheduler.start([
      {
        name: 'slow',
        everyMs: 1_000,
        run: () => {
          started++;
          return new Promise<void>((resolve) => finish.push(resolve));
        },
      },
    ]);
    await jest.advanceTimersByTimeAsync(2_500);
    expect(started).toBe(1);
    finish.forEach((resolve) => resolve());
    finish = [];
    await jest.advanceTimersByTimeAsync(0);
    await scheduler.runSoon('slow');
    expect(started).toBe(2);
    await expect(scheduler.runSoon('unknown')).rejects.toThrow('no scheduled job unknown');
    finish.forEach((resolve) => resolve());
  });

  it('counts failed runs and goes on', async () => {
    scheduler.start([
      {
        name: 'broken',
        everyMs: 1_000,
        run: async () => {
          throw new Error('exchange down');
        },
      },
    ]);
    await jest.advanceTimersByTimeAsync(1_500);
    expect(await runs('broken', 'failed')).toBe(2);
    expect(warnings).toEqual(['job broken failed: exchange down', 'job broken failed: exchange down']);
  });

  it('stops its intervals and waits for the run under way', async () => {
    let finished = false;
    scheduler.start([
      {
        name: 'job',
        everyMs: 1_000,
        run: async () => {
          await new Promise((resolve) => setTimeout(resolve, 500));
          finished = true;
        },
      },
    ]);
    const stopped = scheduler.stop();
    await jest.advanceTimersByTimeAsync(500);
    await stopped;
    expect(finished).toBe(true);
    expect(intervals.getIntervals()).toEqual([]);
  });
});
