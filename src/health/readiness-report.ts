import { StateStore, StoreHealth } from '../store/state-store';
import { Readiness, ReadinessReport } from './readiness';

export interface ReadinessSummary {
  readonly ready: boolean;
  /** A check says the data comes from the built-in sandbox exchange: simulated prices. */
  readonly sandbox: boolean;
  readonly store: StoreHealth;
  /** Each role's check by name (`ingest`, `api`), or `shutdown` once the process is stopping. */
  readonly checks: Record<string, ReadinessReport>;
}

/** Ready: the store answers and every check of the process's roles passes. `/health/ready` shows it. */
export async function readinessSummary(store: StateStore, readiness: Readiness): Promise<ReadinessSummary> {
  const [health, roles] = await Promise.all([store.health(), readiness.evaluate()]);
  const sandbox = Object.values(roles.checks).some((check) => check.sandbox === true);
  return { ready: health.reachable && roles.ready, sandbox, store: health, checks: roles.checks };
}
