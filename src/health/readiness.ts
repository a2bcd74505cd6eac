import { Injectable } from '@nestjs/common';

export interface ReadinessReport {
  readonly ready: boolean;
  readonly [detail: string]: unknown;
}

export interface ReadinessCheck {
  readonly name: string;
  check(): ReadinessReport | Promise<ReadinessReport>;
}

/** The checks `/health/ready` runs; each role registers its own (books live, data fresh, ...). */
@Injectable()
export class Readiness {
  private readonly checks: ReadinessCheck[] = [];

  register(check: ReadinessCheck): void {
    this.checks.push(check);
  }

  async evaluate(): Promise<{ ready: boolean; checks: Record<string, ReadinessReport> }> {
    const reports = await Promise.all(
      this.checks.map(async (check) => [check.name, await check.check()] as const),
    );
    return { ready: reports.every(([, report]) => report.ready), checks: Object.fromEntries(reports) };
  }
}
