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

/** The run as Markdown, for RELIABILITY.md. */
export function chaosMarkdown(result: ChaosResult, command: string, machine: string): string {
  const minutes = (result.durationMs / 60_000).toFixed(1);
  const processes =
    result.mode === 'single'
      ? 'one gateway process (ROLE=all)'
      : `${result.ingestProcesses} ingest and ${result.apiProcesses} API processes`;
  const rows = convergenceByKind(result).map(
    (row) => `| ${row.kind} | ${row.injected} | ${row.converged} | ${row.p50Ms} | ${row.maxMs} |`,
  );
  const failures = Object.entries(result.load.failedByContext)
    .map(([context, count]) => `${context}: ${count}`)
    .join(', ');
  const notConverged = result.faults.filter((fault) => !fault.converged);
  return [
    `Command: \`${command}\``,
    `Machine: ${machine}. Started ${result.startedAt}, ${minutes} minutes in all.`,
    `Seed ${result.seed}, ${processes} on one Redis, ${result.flowRate} synthetic orders/s per market while faults are on, ${result.instruments.length} listed markets.`,
    '',
    '| Fault | Injected | Converged | p50 ms | max ms |',
    '|---|---|---|---|---|',
    ...rows,
    '',
    `- Converged at start in ${result.initialConvergeMs} ms.`,
    `- Requests served: ${result.load.served}; failed: ${result.load.failed}${failures ? ` (${failures})` : ''}; refused while the only API process was deliberately down: ${result.load.refusedInOutage}.`,
    `- Trades lost (in the truth, not served at the end): ${result.lostTrades.length}; trades served twice at any moment: ${result.doubledTrades.length}; trades served and later missing for a while: ${result.vanishedTrades.length}.`,
    `- Checker rounds while the market moved: ${result.checkerRounds}; violations (crossed or unordered books, trades not in the truth, with other figures, doubled or vanished): ${result.violations.length}.`,
    `- Final convergence: ${result.finalConvergence.converged ? `${result.finalConvergence.ms} ms` : `not within the bound (${result.finalConvergence.detail})`}.`,
    ...(notConverged.length > 0
      ? [
          '',
          'Not converged within the bound:',
          ...notConverged.map((fault) => `- ${fault.kind}: ${fault.detail}`),
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
