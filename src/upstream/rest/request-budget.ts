/** The exchange's REST path families, each with its own rate limit (spec 8). */
export type RestFamily = 'frontoffice' | 'marketdata';

/** Requests per second the exchange admits per family before it answers 429. */
export const REST_RATE_LIMITS: Readonly<Record<RestFamily, number>> = {
  frontoffice: 1,
  marketdata: 2,
};

/** Leave to send one request. */
export interface RequestPermit {
  /**
   * Call once the request is over: answered, failed or abandoned. The exchange counted it at some
   * moment before its answer, so only from here on can a budget tell when that count leaves the
   * exchange's window. Later calls do nothing.
   */
  release(): void;
}

/**
 * Permission to send REST requests to the exchange. Every request, retries included, takes a
 * permit of its family first. Implementations may be in-process or shared between replicas.
 */
export interface RequestBudget {
  /**
   * Resolves when one request of `family` may be sent now. Rejects with `signal.reason` when the
   * signal aborts first; an aborted wait uses up nothing.
   */
  acquire(family: RestFamily, signal?: AbortSignal): Promise<RequestPermit>;

  /** How much of each family's limit is taken now, for operators. Never rejects. */
  usage(): Promise<readonly BudgetUsage[]>;
}

/** One family's budget as it stands. */
export interface BudgetUsage {
  readonly family: RestFamily;
  /** Requests the exchange admits per window. */
  readonly limit: number;
  /** Requests the exchange may be counting now: running, or ended less than a window ago. */
  readonly counting: number;
  /** This process's callers waiting for a permit. */
  readonly waiting: number;
  /**
   * `deployment` when `counting` is every replica's (the budget shared in Redis), `process` when
   * it is this process's own (no Redis, or Redis out of reach).
   */
  readonly scope: 'deployment' | 'process';
}

/** The family of a REST path relative to the base URL, e.g. `/marketdata/instruments/btc_usdt/depth`. */
export function restFamilyOf(path: string): RestFamily {
  if (path.startsWith('/frontoffice/')) return 'frontoffice';
  if (path.startsWith('/marketdata/')) return 'marketdata';
  throw new RangeError(`${path} is under neither /frontoffice/ nor /marketdata/`);
}
