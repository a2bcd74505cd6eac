import { Counter, Histogram, Registry } from 'prom-client';
import { ScheduledJob } from './scheduled-job';

export type JobResult = 'ok' | 'failed';

/** Counts and times the scheduled jobs this process ran; the cluster's total is the sum over replicas. */
export class JobMetrics {
  private readonly runs: Counter<'job' | 'result'>;
  private readonly duration: Histogram<'job'>;

  constructor(registry: Registry) {
    this.runs = new Counter({
      name: 'mdg_job_runs_total',
      help: 'Runs of each scheduled job in this process, by result (ok, failed).',
      labelNames: ['job', 'result'],
      registers: [registry],
    });
    this.duration = new Histogram({
      name: 'mdg_job_duration_seconds',
      help: 'Duration of the scheduled job runs in this process.',
      labelNames: ['job'],
      buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60],
      registers: [registry],
    });
  }

  /** Runs the job, counting the run and its result; rethrows its error. */
  async measure(job: ScheduledJob): Promise<void> {
    const stop = this.duration.startTimer({ job: job.name });
    try {
      await job.run();
      this.runs.inc({ job: job.name, result: 'ok' });
    } catch (error) {
      this.runs.inc({ job: job.name, result: 'failed' });
      throw error;
    } finally {
      stop();
    }
  }
}
