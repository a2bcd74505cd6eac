import { sleep } from '../support/fault-run';

/**
 * A request not answered within this counts as failed: a hung server, not a slow one. A 2-core machine
 * running the chaos stack beside other work has taken over 5 s for an answer served from memory.
 */
const ANSWER_TIMEOUT_MS = 15_000;

export interface LoadCounts {
  /** Requests answered with 2xx or 304. */
  readonly served: number;
  /** Of those, answers marked `X-Data-Stale: true` (the last good state while the store is unreachable or lost it), by the fault going on. */
  readonly staleByContext: Readonly<Record<string, number>>;
  /** Other answers and failed requests while every API process was up. */
  readonly failed: number;
  /** Other answers and failed requests while the only API process was deliberately down. */
  readonly refusedInOutage: number;
  /** Failures by the fault that was going on (`none` between faults). */
  readonly failedByContext: Readonly<Record<string, number>>;
  /** The first failures, described. */
  readonly examples: readonly string[];
}

export interface LoadTargets {
  /** URLs of the API processes that run now. */
  urls(): string[];
  /** True while every API process is down on purpose (a killed single process being restarted). */
  inOutage(): boolean;
  /** A counter that grows at each outage, so that a request spanning one is told apart. */
  outageEpoch(): number;
  /** What is going on, to file failures under. */
  context(): string;
}

const MAX_EXAMPLES = 30;

/**
 * Aggregators polling the API without pause: a few loops, each over the listing paths, spread over
 * the API processes that run. A request that is not answered with 2xx or 304 counts as failed,
 * unless the API was deliberately down while it ran.
 */
export class ApiLoad {
  private served = 0;
  private readonly staleByContext: Record<string, number> = {};
  private failed = 0;
  private refusedInOutage = 0;
  private readonly failedByContext: Record<string, number> = {};
  private readonly examples: string[] = [];
  private loops: Promise<void>[] = [];
  private stopped = false;

  constructor(
    private readonly targets: LoadTargets,
    private readonly paths: readonly string[],
    private readonly concurrency = 4,
  ) {}

  start(): void {
    this.loops = Array.from({ length: this.concurrency }, (_, index) => this.loop(index));
  }

  async stop(): Promise<LoadCounts> {
    this.stopped = true;
    await Promise.all(this.loops);
    return this.counts();
  }

  counts(): LoadCounts {
    return {
      served: this.served,
      staleByContext: { ...this.staleByContext },
      failed: this.failed,
      refusedInOutage: this.refusedInOutage,
      failedByContext: { ...this.failedByContext },
      examples: [...this.examples],
    };
  }

  private async loop(offset: number): Promise<void> {
    let turn = offset;
    while (!this.stopped) {
      const urls = this.targets.urls();
      if (urls.length === 0) {
        await sleep(50);
        continue;
      }
      const path = this.paths[turn % this.paths.length];
      const url = urls[turn % urls.length];
      turn += 1;
      await this.request(url, path);
      // Leaves the processes under test some of the CPU.
      await sleep(10);
    }
  }

  private async request(url: string, path: string): Promise<void> {
    const epoch = this.targets.outageEpoch();
    const outageAtStart = this.targets.inOutage();
    const context = this.targets.context();
    let failure: string | undefined;
    let stale = false;
    try {
      const response = await fetch(`${url}${path}`, { signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS) });
      const body = await response.text();
      if (!(response.ok || response.status === 304)) failure = `${response.status} ${body.slice(0, 160)}`;
      stale = response.headers.get('x-data-stale') === 'true';
    } catch (error) {
      failure = (error as Error).message;
    }
    if (failure === undefined) {
      this.served += 1;
      if (stale) this.staleByContext[context] = (this.staleByContext[context] ?? 0) + 1;
      return;
    }
    if (outageAtStart || this.targets.inOutage() || this.targets.outageEpoch() !== epoch) {
      this.refusedInOutage += 1;
      return;
    }
    this.failed += 1;
    this.failedByContext[context] = (this.failedByContext[context] ?? 0) + 1;
    if (this.examples.length < MAX_EXAMPLES)
      this.examples.push(`${new Date().toISOString()} during ${context}: GET ${path}: ${failure}`);
    await sleep(50);
  }
}

/** Resolves once a process answers every path with 200 (its books and trades loaded). */
export async function untilServing(url: string, paths: readonly string[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const statuses = await Promise.all(
      paths.map(async (path) => {
        const response = await fetch(`${url}${path}`).catch(() => undefined);
        await response?.text();
        return response?.status;
      }),
    );
    if (statuses.every((status) => status === 200)) return;
    await sleep(100);
  }
}
