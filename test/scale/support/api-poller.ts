import { GatewayProcess } from './gateway-process';

/** A request not answered within this counts as failed: a hung replica, not a slow machine. */
const ANSWER_TIMEOUT_MS = 15_000;

export interface PollResult {
  /** Requests answered, by replica name. */
  readonly requests: ReadonlyMap<string, number>;
  /** Every answer other than 2xx or 304, and every request that failed, described. */
  readonly failures: readonly string[];
}

/**
 * Polls API replicas without pause, each on its own loop over the paths, as aggregators would,
 * and keeps every answer that was not a success.
 */
export class ApiPoller {
  private readonly requests = new Map<string, number>();
  private readonly failures: string[] = [];
  private loops: Promise<void>[] = [];
  private stopped = false;

  constructor(
    private readonly replicas: readonly GatewayProcess[],
    private readonly paths: readonly string[],
  ) {}

  start(): void {
    this.loops = this.replicas.map((replica) => this.poll(replica));
  }

  /** Requests answered so far, by replica name. */
  answered(): ReadonlyMap<string, number> {
    return new Map(this.requests);
  }

  async stop(): Promise<PollResult> {
    this.stopped = true;
    await Promise.all(this.loops);
    return { requests: this.requests, failures: this.failures };
  }

  private async poll(replica: GatewayProcess): Promise<void> {
    while (!this.stopped) {
      for (const path of this.paths) {
        if (this.stopped) return;
        await this.request(replica, path);
      }
      // Leaves the processes under test some of the CPU.
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  private async request(replica: GatewayProcess, path: string): Promise<void> {
    try {
      const response = await fetch(`${replica.url}${path}`, {
        signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS),
      });
      const body = await response.text();
      this.requests.set(replica.name, (this.requests.get(replica.name) ?? 0) + 1);
      if (!(response.ok || response.status === 304))
        this.failures.push(`${replica.name} ${path}: ${response.status} ${body.slice(0, 200)}`);
    } catch (error) {
      this.failures.push(`${replica.name} ${path}: ${(error as Error).message}`);
    }
  }
}

/** Resolves once every replica answers every path with 200, e.g. once they loaded every book. */
export async function untilAllAnswer(
  replicas: readonly GatewayProcess[],
  paths: readonly string[],
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const statuses = await Promise.all(
      replicas.flatMap((replica) =>
        paths.map(async (path) => {
          const response = await fetch(`${replica.url}${path}`).catch(() => undefined);
          await response?.text();
          return response?.status === 200 ? undefined : `${replica.name} ${path}: ${response?.status}`;
        }),
      ),
    );
    const failing = statuses.filter((status) => status !== undefined);
    if (failing.length === 0) return;
    if (Date.now() > deadline) throw new Error(`not answering within ${timeoutMs} ms: ${failing.join('; ')}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
