import { Logger } from '@nestjs/common';
import { Job, Queue, Worker } from 'bullmq';
import { ReconnectBackoff } from '../upstream/reconnect-backoff';
import { JobConnections } from './bullmq-connection';
import { JobMetrics } from './job-metrics';
import { JobScheduler, ScheduledJob } from './scheduled-job';

/** The one queue of the gateway's scheduled jobs. */
export const JOB_QUEUE = 'scheduled';

const WARN_INTERVAL_MS = 30_000;
const DEFAULT_CHECK_MS = 30_000;

/** Finished jobs kept for inspection (BullMQ keeps them all by default). */
const KEEP_FINISHED = 50;

export interface BullMqJobSchedulerOptions {
  readonly connections: JobConnections;
  /** Prefix of the queue's keys (`bullmqPrefix`). */
  readonly prefix: string;
  readonly metrics: JobMetrics;
  /** How often the schedulers are checked for, and registered again if Redis lost them; 30 s by default. */
  readonly checkMs?: number;
}

/**
 * Scheduled jobs shared by every replica on one Redis, on BullMQ job schedulers: each replica
 * upserts the same schedulers under stable ids (idempotent, so replicas starting in any order agree),
 * and runs one worker. A scheduler adds one job per interval, which exactly one worker takes; a
 * scheduler no longer among the jobs is removed. Schedulers live in Redis: one that Redis lost (a
 * restart without persistence, a flush) is registered again at the next check.
 */
export class BullMqJobScheduler implements JobScheduler {
  private readonly logger = new Logger(BullMqJobScheduler.name);
  private readonly queue: Queue;
  private worker?: Worker;
  private readonly jobs = new Map<string, ScheduledJob>();
  /** The jobs this process is running. */
  private readonly underWay = new Set<Promise<void>>();
  private registering?: Promise<void>;
  private checking?: Promise<void>;
  private checkTimer?: NodeJS.Timeout;
  private wake?: () => void;
  private stopped = false;
  private lastWarnedAt = -Infinity;

  constructor(private readonly options: BullMqJobSchedulerOptions) {
    this.queue = new Queue(JOB_QUEUE, {
      connection: JobConnections.asBullMq(options.connections.queue),
      prefix: options.prefix,
    });
    this.queue.on('error', (error) => this.reportError('queue', error));
  }

  start(jobs: readonly ScheduledJob[]): void {
    for (const job of jobs) this.jobs.set(job.name, job);
    this.registering = this.register(jobs).then(() => this.scheduleCheck());
    // A reconnection may reach a replica promoted before the schedulers were copied to it.
    this.options.connections.queue.on('ready', this.checkAfterReconnect);
    this.worker = new Worker(JOB_QUEUE, (job) => this.process(job), {
      connection: JobConnections.asBullMq(this.options.connections.worker),
      prefix: this.options.prefix,
      // A slow job (a refresh waiting for the exchange) does not hold up the others on this replica.
      concurrency: Math.max(1, jobs.length),
      removeOnComplete: { count: KEEP_FINISHED },
      removeOnFail: { count: KEEP_FINISHED },
    });
    this.worker.on('error', (error) => this.reportError('worker', error));
  }

  async runSoon(name: string): Promise<void> {
    if (!this.jobs.has(name)) throw new Error(`no scheduled job ${name}`);
    await this.queue.add(
      name,
      {},
      { deduplication: { id: `soon:${name}` }, removeOnComplete: true, removeOnFail: true },
    );
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.options.connections.queue.off('ready', this.checkAfterReconnect);
    clearTimeout(this.checkTimer);
    this.wake?.();
    // The jobs under way here finish first; the others stay in Redis for the other replicas. Not by
    // BullMQ's graceful close: it also waits for each finished job's result to reach Redis, however
    // long Redis is away.
    await this.worker?.pause(true);
    while (this.underWay.size > 0) await Promise.allSettled([...this.underWay]);
    await this.worker?.close(true);
    await this.registering;
    await this.checking;
    await this.queue.close();
    await this.options.connections.close();
  }

  private async process(job: Job): Promise<void> {
    const scheduled = this.jobs.get(job.name);
    // A job of another version of the service, whose scheduler this one removes.
    if (!scheduled) return;
    const run = this.options.metrics.measure(scheduled);
    this.underWay.add(run);
    try {
      await run;
    } finally {
      this.underWay.delete(run);
    }
  }

  /** Upserts every scheduler, retrying until Redis takes them, then removes the ones not known here. */
  private async register(jobs: readonly ScheduledJob[]): Promise<void> {
    const backoff = new ReconnectBackoff({ initialDelayMs: 500, maxDelayMs: 10_000 });
    for (let attempt = 0; !this.stopped; attempt++) {
      try {
        for (const job of jobs) await this.upsert(job);
        for (const scheduler of await this.queue.getJobSchedulers()) {
          if (!this.jobs.has(scheduler.key)) await this.queue.removeJobScheduler(scheduler.key);
        }
        return;
      } catch (error) {
        if (this.stopped) return;
        this.logger.warn(`job schedulers not registered yet, retrying: ${(error as Error).message}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, backoff.delay(attempt));
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    }
  }

  private upsert(job: ScheduledJob): Promise<unknown> {
    return this.queue.upsertJobScheduler(
      job.name,
      { every: job.everyMs },
      { name: job.name, opts: { removeOnComplete: KEEP_FINISHED, removeOnFail: KEEP_FINISHED } },
    );
  }

  private scheduleCheck(): void {
    if (this.stopped) return;
    this.checkTimer = setTimeout(() => {
      this.checking = this.restoreMissing().finally(() => {
        this.checking = undefined;
        this.scheduleCheck();
      });
    }, this.options.checkMs ?? DEFAULT_CHECK_MS);
  }

  private readonly checkAfterReconnect = (): void => {
    if (this.stopped || this.checking) return;
    this.checking = this.restoreMissing().finally(() => (this.checking = undefined));
  };

  private async restoreMissing(): Promise<void> {
    try {
      for (const job of this.jobs.values()) {
        if (this.stopped) return;
        if (await this.queue.getJobScheduler(job.name)) continue;
        this.logger.warn(`job scheduler ${job.name} was missing (Redis lost its data?); registered again`);
        await this.upsert(job);
      }
    } catch (error) {
      this.reportError('scheduler check', error as Error);
    }
  }

  /** At most one warning per interval: BullMQ reports every failed reconnection. */
  private reportError(source: string, error: Error): void {
    const now = Date.now();
    if (now - this.lastWarnedAt < WARN_INTERVAL_MS) return;
    this.lastWarnedAt = now;
    this.logger.warn(`job ${source}: ${error.message}`);
  }
}
