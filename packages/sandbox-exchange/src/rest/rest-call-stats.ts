import { REST_FAMILY_NAMES, RestFamily } from './rest-family';

/** What became of a REST call. */
export type RestCallOutcome =
  /** passed on to its endpoint, whatever the endpoint answered */
  | 'served'
  /** refused with 429 by the rate limit */
  | 'limited'
  /** answered 429 or 503 by an injected fault (rest-429, rest-503) */
  | 'failed';

export type RestFamilyStats = Record<RestCallOutcome, number>;

/**
 * Counts the REST calls of each family since the start, so that a test can prove that its client
 * stayed within the rate limits (`limited` stays 0) while faults were injected (`failed`).
 */
export class RestCallStats {
  private readonly counts = new Map<RestFamily, RestFamilyStats>(
    REST_FAMILY_NAMES.map((family) => [family, { served: 0, limited: 0, failed: 0 }]),
  );

  record(family: RestFamily, outcome: RestCallOutcome): void {
    this.counts.get(family)![outcome] += 1;
  }

  snapshot(): Record<RestFamily, RestFamilyStats> {
    return Object.fromEntries(
      REST_FAMILY_NAMES.map((family) => [family, { ...this.counts.get(family)! }]),
    ) as Record<RestFamily, RestFamilyStats>;
  }
}
