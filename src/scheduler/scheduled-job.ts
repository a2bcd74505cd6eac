/** Periodic work of the cluster: one run per interval, on one replica. */
export interface ScheduledJob {
  /** Stable name: the job scheduler's id in Redis and the `job` label of the metrics. */
  readonly name: string;
  readonly everyMs: number;
  run(): Promise<void>;
}

/**
 * Runs scheduled jobs: across every replica sharing a Redis (one run per interval in all), or in
 * this process alone without one.
 */
export interface JobScheduler {
  /** Schedules the jobs and starts running them; a job due at start runs at once. */
  start(jobs: readonly ScheduledJob[]): void;
  /** Runs the job once more, soon, besides its schedule; a request while one is pending adds nothing. */
  runSoon(name: string): Promise<void>;
  /** Stops taking jobs; resolves once the runs under way in this process are over. */
  stop(): Promise<void>;
}

export const JOB_SCHEDULER = Symbol('JobScheduler');
