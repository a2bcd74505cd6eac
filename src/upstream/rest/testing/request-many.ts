import { RequestBudget, RestFamily } from '../request-budget';

/**
 * Starts `count` acquires of one family; each request then runs for `durationMs` and releases its
 * permit. Returns the grant times as `elapsed()` tells them, filled in as they happen.
 */
export function requestMany(
  budget: RequestBudget,
  family: RestFamily,
  count: number,
  elapsed: () => number,
  durationMs = 0,
): number[] {
  const granted: number[] = [];
  for (let i = 0; i < count; i++) {
    void budget.acquire(family).then((permit) => {
      granted.push(elapsed());
      if (durationMs === 0) permit.release();
      else setTimeout(() => permit.release(), durationMs);
    });
  }
  return granted;
}
