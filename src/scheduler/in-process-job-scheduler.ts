import { Logger } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { JobMetrics } from './job-metrics';
import { JobScheduler, ScheduledJob } from './scheduled-job';

const INTERVAL_PREFIX = 'job:';

/**
 * Scheduled jobs of a single process without Redis, on @nestjs/schedule intervals. A job runs at
 * start and then every interval; a tick that finds the previous run still going is skipped, as a
 * cluster-wide scheduler skips it too.
 */
export class InProcessJobScheduler implements JobScheduler {
  private readonly jobs = new Map<string, ScheduledJob>();
  private readonly running = new Map<string, Promise<void>>();
  private stopped = false;

  constructor(
    private readonly registry: SchedulerRegistry,
    private readonly metrics: JobMetrics,
    private readonly logger: { warn(message: string): void } = new Logger(InProcessJobScheduler.name),
  ) {}

  start(jobs: readonly ScheduledJob[]): void {
    for (const job of jobs) {
      this.jobs.set(job.name, job);
      this.registry.addInterval(
        INTERVAL_PREFIX + job.name,
        setInterval(() => this.trigger(job), job.everyMs),
      );
      this.trigger(job);
    }
  }

  async runSoon(name: string): Promise<void> {
    const job = this.jobs.get(name);
    if (!job) throw new Error(`no scheduled job ${name}`);
    this.trigger(job);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const name of this.jobs.keys()) {
      const interval = INTERVAL_PREFIX + name;
      // The schedule module may have cleared its intervals already.
      if (this.registry.doesExist('interval', interval)) this.registry.deleteInterval(interval);
    }
    await Promise.all(this.running.values());
  }

  private trigger(job: ScheduledJob): void {
    if (this.stopped || this.running.has(job.name)) return;
    const run = this.metrics
      .measure(job)
      .catch((error: unknown) => this.logger.warn(`job ${job.name} failed: ${(error as Error).message}`))
      .finally(() => this.running.delete(job.name));
    this.running.set(job.name, run);
  }
}
