import { ChaosResult, InjectedFault } from './run-chaos';

export interface ConvergenceFigures {
  readonly kind: string;
  readonly injected: number;
  readonly converged: number;
  readonly p50Ms: number;
  readonly maxMs: number;
}

/** Nearest-rank percentile of `values` (0 when empty). */
export function percentile(values: readonly number[], share: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))];
}

function figures(kind: string, faults: readonly InjectedFault[]): ConvergenceFigures {
  const times = faults.map((fault) => fault.convergeMs);
  return {
    kind,
    injected: faults.length,
    converged: faults.filter((fault) => fault.converged).length,
    p50Ms: percentile(times, 0.5),
    maxMs: times.length > 0 ? Math.max(...times) : 0,
  };
}

/** Convergence per fault kind, in the order of first injection, then all of them together. */
export function convergenceByKind(result: ChaosResult): ConvergenceFigures[] {
  const kinds = [...new Set(result.faults.map((fault) => fault.kind))].sort();
  return [
    ...kinds.map((kind) =>
      figures(
        kind,
        result.faults.filter((fault) => fault.kind === kind),
      ),
    ),
    figures('all faults', result.faults),
  ];
}

/**
 * What was counted while faults of `kind` were on or converging (`all faults`: while any was);
 * counts are filed under the fault's kind, with ` (converging)` after it ends.
 */
function countDuring(counts: Readonly<Record<string, number>>, kind: string): number {
  return Object.entries(counts)
    .filter(([context]) =>
      kind === 'all faults'
        ? !['none', 'start', 'end'].includes(context)
        : context === kind || context === `${kind} (converging)`,
    )
    .reduce((sum, [, count]) => sum + count, 0);
}

/** The run as Markdown, for RELIABILITY.md. */
export function chaosMarkdown(result: ChaosResult, command: string, machine: string): string {
  const minutes = (result.durationMs / 60_000).toFixed(1);
  const processes =
    result.mode === 'single'
      ? 'one gateway process (ROLE=all)'
      : `${result.ingestProcesses} ingest and ${result.apiProcesses} API processes`;
  const redis = result.redis === 'sentinel' ? 'a primary, two replicas and three Sentinels' : 'one Redis';
  const rows = convergenceByKind(result).map((row) => {
    const during = (counts: Readonly<Record<string, number>>) => countDuring(counts, row.kind);
    return (
      `| ${row.kind} | ${row.injected} | ${row.converged} | ${row.p50Ms} | ${row.maxMs} | ` +
      `${during(result.load.failedByContext)} | ${during(result.load.staleByContext)} | ${during(result.owners.changesByContext)} |`
    );
  });
  const failures = Object.entries(result.load.failedByContext)
    .map(([context, count]) => `${context}: ${count}`)
    .join(', ');
  const notConverged = result.faults.filter((fault) => !fault.converged);
  return [
    `Command: \`${command}\``,
    `Machine: ${machine}. Started ${result.startedAt}, ${minutes} minutes in all.`,
    `Seed ${result.seed}, ${processes} on ${redis}, ${result.flowRate} synthetic orders/s per market while faults are on, ${result.instruments.length} listed markets.`,
    '',
    '| Fault | Injected | Converged | p50 ms | max ms | failed requests | stale answers | lease changes |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    `- Converged at start in ${result.initialConvergeMs} ms.`,
    `- Requests served: ${result.load.served}; failed: ${result.load.failed}${failures ? ` (${failures})` : ''}; refused while the only API process was deliberately down: ${result.load.refusedInOutage}.`,
    `- Trades lost (in the truth, not served at the end): ${result.lostTrades.length}; trades served twice at any moment: ${result.doubledTrades.length}; trades served and later missing for a while: ${result.vanishedTrades.length}.`,
    `- Answers marked \`X-Data-Stale: true\` (the last good state while the store was unreachable or lacked it): ${staleAnswers(result)}.`,
    ownerLine(result),
    `- Checker rounds while the market moved: ${result.checkerRounds}; violations (crossed or unordered books, trades not in the truth, with other figures, doubled or vanished): ${result.violations.length}.`,
    `- Final convergence: ${result.finalConvergence.converged ? `${result.finalConvergence.ms} ms` : `not within the bound (${result.finalConvergence.detail})`}.`,
    ...(notConverged.length > 0
      ? [
          '',
          'Not converged within the bound:',
          ...notConverged.map((fault) => `- ${fault.kind}: ${fault.detail}`),
        ]
      : []),
    ...(result.owners.notableChanges.length > 0
      ? [
          '',
          'Lease changes not explained by a lease running out:',
          ...result.owners.notableChanges
            .slice(0, 10)
            .map(
              (c) =>
                `- ${c.at} during ${c.context}: ${c.instrument} ${c.from} → ${c.to} (${c.cause}, read from port ${c.readFrom})`,
            ),
        ]
      : []),
    ...(result.owners.tokenRegressions.length > 0
      ? [
          '',
          'Fencing tokens that went back:',
          ...result.owners.tokenRegressions.slice(0, 10).map((line) => `- ${line}`),
        ]
      : []),
    ...(result.load.examples.length > 0
      ? ['', 'First failed requests:', ...result.load.examples.slice(0, 10).map((line) => `- ${line}`)]
      : []),
    ...(Object.values(result.processErrors).some((lines) => lines.length > 0)
      ? [
          '',
          'Last error lines of the gateway processes:',
          ...Object.entries(result.processErrors).flatMap(([name, lines]) =>
            lines.slice(-5).map((line) => `- ${name}: ${line.slice(0, 300)}`),
          ),
        ]
      : []),
    ...(result.violations.length > 0
      ? [
          '',
          'First violations:',
          ...result.violations.slice(0, 10).map((v) => `- ${v.at} during ${v.context}: ${v.detail}`),
        ]
      : []),
  ].join('\n');
}

function staleAnswers(result: ChaosResult): string {
  const byContext = Object.entries(result.load.staleByContext);
  const total = byContext.reduce((sum, [, count]) => sum + count, 0);
  return total === 0
    ? '0'
    : `${total} (${byContext.map(([context, count]) => `${context}: ${count}`).join(', ')})`;
}

function ownerLine(result: ChaosResult): string {
  const { owners } = result;
  const instruments = Object.values(owners.instruments);
  const changes = instruments.reduce((sum, figures) => sum + figures.changes, 0);
  const mostOwners = Math.max(0, ...instruments.map((figures) => figures.owners));
  const causes = owners.changesByCause;
  return (
    `- Lease owners, sampled every 100 ms (${owners.samples} samples, ${owners.failedSamples} failed while the primary was down or stalled, ${owners.offPrimarySamples} left out because the node read was not the primary every Sentinel named): ` +
    `${changes} changes of hands over ${instruments.length} instruments, owners of one instrument at most ${mostOwners}; ` +
    `after the old lease could have run out ${causes['ran-out']}, after it was released or lost ${causes.removed}, ` +
    `while ingest processes were killed or joined ${causes.rebalanced}, unexplained (taken while the old lease still ran) ${causes.unexplained}; ` +
    `fencing tokens that went back: ${owners.tokenRegressions.length}.`
  );
}
