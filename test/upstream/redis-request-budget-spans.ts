import type { Cluster, Redis } from 'ioredis';
import { RequestBudget, RestFamily } from '../../src/upstream/rest/request-budget';

/** One request under a budget: the exchange counts it at some moment between grant and release. */
export interface PermitSpan {
  /** Which replica held it. */
  readonly replica: number;
  readonly grantedAt: number;
  readonly releasedAt: number;
}

/**
 * The most requests one window could have counted: for each span, those granted no later than it
 * whose release came less than `windowMs` before its grant could all be counted with it in the window
 * that ends at its grant. Any `n` spans fall in one window exactly when the latest grant comes less
 * than `windowMs` after the earliest release.
 */
export function mostInOneWindow(spans: readonly PermitSpan[], windowMs: number): number {
  let most = 0;
  for (const latest of spans) {
    const together = spans.filter(
      (span) => span.grantedAt <= latest.grantedAt && span.releasedAt > latest.grantedAt - windowMs,
    ).length;
    most = Math.max(most, together);
  }
  return most;
}

/**
 * How long permits kept a slot of the limit taken: each from its grant until `holdMs` after its
 * release. Beside the limit times the run's duration, it tells how much capacity handovers lost.
 */
export function occupiedMs(spans: readonly PermitSpan[], holdMs: number): number {
  return spans.reduce((sum, span) => sum + span.releasedAt + holdMs - span.grantedAt, 0);
}

/**
 * Runs `workers` loops per budget, each taking a permit, holding it for a random 0 to `maxHoldMs`
 * (the request) and releasing it, for `durationMs`; waits still open then are aborted. Times from
 * `performance.now()`.
 */
export async function hammer(
  budgets: readonly RequestBudget[],
  family: RestFamily,
  options: { workers: number; durationMs: number; maxHoldMs: number },
): Promise<PermitSpan[]> {
  const spans: PermitSpan[] = [];
  const over = AbortSignal.timeout(options.durationMs);
  const loops = budgets.flatMap((budget, replica) =>
    Array.from({ length: options.workers }, async () => {
      while (!over.aborted) {
        let permit;
        try {
          permit = await budget.acquire(family, over);
        } catch (error) {
          if (over.aborted) return;
          throw error;
        }
        const grantedAt = performance.now();
        await new Promise((resolve) => setTimeout(resolve, Math.random() * options.maxHoldMs));
        const releasedAt = performance.now();
        permit.release();
        spans.push({ replica, grantedAt, releasedAt });
      }
    }),
  );
  await Promise.all(loops);
  return spans;
}

/**
 * The share of the limit's capacity a budget must keep taken in a test: low enough for a loaded
 * machine, where handing a permit over waits for the scheduler. The share on a quiet machine is a
 * benchmark's figure (`npm run bench -- --only request-budget`).
 */
export const MIN_OCCUPIED_SHARE = 0.6;

/** The permits a family's budget counts: seat -> Redis time (ms) at which each stops counting. */
export async function countedPermits(
  redis: Redis | Cluster,
  permitsKey: string,
): Promise<Map<string, number>> {
  const flat = await redis.zrange(permitsKey, '0', '-1', 'WITHSCORES');
  const permits = new Map<string, number>();
  for (let index = 0; index < flat.length; index += 2) permits.set(flat[index], Number(flat[index + 1]));
  return permits;
}
