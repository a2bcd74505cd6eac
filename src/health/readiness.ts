import { Injectable } from '@nestjs/common';

export interface ReadinessReport {
  readonly ready: boolean;
  readonly [detail: string]: unknown;
}

export interface ReadinessCheck {
  readonly name: string;
  check(): ReadinessReport | Promise<ReadinessReport>;
}

/**
 * The checks `/health/ready` runs; each role registers its own (books live, data fresh, ...). Once
 * the process begins to shut down it is never ready again, so that load balancers stop sending to it
 * before it stops accepting.
 */
@Injectable()
export class Readiness {
  private readonly checks: ReadinessCheck[] = [];
  private shuttingDown = false;

  register(check: ReadinessCheck): void {
    this.checks.push(check);
  }

  /** From now on the process reports not ready. */
  shutDown(): void {
    this.shuttingDown = true;
  }

  get isShuttingDown(): boolean {
    return this.shuttingDown;
  }

  async evaluate(): Promise<{ ready: boolean; checks: Record<string, ReadinessReport> }> {
    if (this.shuttingDown) {
      return { ready: false, checks: { shutdown: { ready: false, reason: 'shutting down' } } };
    }
    const reports = await Promise.all(
      this.checks.map(async (check) => [check.name, await check.check()] as const),
    );
    return { ready: reports.every(([, report]) => report.ready), checks: Object.fromEntries(reports) };
  }
}
