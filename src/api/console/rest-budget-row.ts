/** One family of the REST budget, as the ingest reports it at `/health/ready`. */
export interface RestBudgetRow {
  readonly family: string;
  readonly limit: number;
  readonly counting: number;
  readonly waiting: number;
  /** `deployment`: every replica's requests (the budget shared in Redis); `process`: this one's. */
  readonly scope: string;
}

/** The ingest's `restBudget` readiness detail, keeping only well-formed rows. */
export function restBudgetRows(detail: unknown): RestBudgetRow[] {
  if (!Array.isArray(detail)) return [];
  return detail
    .filter(
      (row): row is RestBudgetRow =>
        typeof row === 'object' &&
        row !== null &&
        typeof row.family === 'string' &&
        [row.limit, row.counting, row.waiting].every(Number.isInteger) &&
        typeof row.scope === 'string',
    )
    .map(({ family, limit, counting, waiting, scope }) => ({ family, limit, counting, waiting, scope }));
}
