import { Finding } from './audit-finding';
import { CHECK_NAMES, CheckName, CHECKS } from './check-names';

export type CheckStatus = 'pass' | 'warn' | 'fail' | 'skip';

export interface CheckResult {
  readonly check: CheckName;
  readonly status: CheckStatus;
  readonly description: string;
  /** Failures first, then warnings; each problem once. */
  readonly findings: readonly Finding[];
  /** Why the check did not run. */
  readonly skipped?: string;
}

/** One result per check, in the report's order: the worst finding decides, no finding passes. */
export function summarize(
  findings: readonly Finding[],
  skipped: ReadonlyMap<CheckName, string>,
): CheckResult[] {
  const seen = new Set<string>();
  const unique = findings.filter((finding) => {
    const key = `${finding.check}\u0000${finding.severity}\u0000${finding.where}\u0000${finding.detail}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return CHECK_NAMES.map((check) => {
    const own = unique.filter((finding) => finding.check === check);
    const failures = own.filter((finding) => finding.severity === 'fail');
    const warnings = own.filter((finding) => finding.severity === 'warn');
    const reason = skipped.get(check);
    const status: CheckStatus =
      failures.length > 0 ? 'fail' : warnings.length > 0 ? 'warn' : reason !== undefined ? 'skip' : 'pass';
    return {
      check,
      status,
      description: CHECKS[check],
      findings: [...failures, ...warnings],
      skipped: reason,
    };
  });
}

/** Non-zero when any check failed; warnings and skipped checks do not fail an audit. */
export function exitStatus(results: readonly CheckResult[]): number {
  return results.some((result) => result.status === 'fail') ? 1 : 0;
}

const WIDTH = Math.max(...CHECK_NAMES.map((name) => name.length));

/** The readable report: one line per check, then up to `examples` problems under each that has some. */
export function renderReport(heading: string, results: readonly CheckResult[], examples = 3): string {
  const lines = [heading, ''];
  for (const result of results) {
    const label = result.status.toUpperCase().padEnd(4);
    const count =
      result.findings.length === 0
        ? ''
        : ` (${result.findings.length} problem${result.findings.length === 1 ? '' : 's'})`;
    const text =
      result.skipped !== undefined && result.findings.length === 0
        ? `skipped: ${result.skipped}`
        : result.description;
    lines.push(`${label} ${result.check.padEnd(WIDTH)}  ${text}${count}`);
    for (const finding of result.findings.slice(0, examples))
      lines.push(`       ${finding.severity === 'fail' ? 'x' : '!'} ${finding.where}: ${finding.detail}`);
    if (result.findings.length > examples)
      lines.push(`       ... and ${result.findings.length - examples} more`);
  }
  const tally = (status: CheckStatus) => results.filter((result) => result.status === status).length;
  lines.push(
    '',
    `${tally('fail')} failed, ${tally('warn')} warned, ${tally('pass')} passed, ${tally('skip')} skipped: ${exitStatus(results) === 0 ? 'no check failed' : 'aggregators would reject this listing'}`,
  );
  return lines.join('\n');
}
