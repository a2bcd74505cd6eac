import { HttpStatus } from '@nestjs/common';
import { FaultSwitchboard } from '../faults/fault-switchboard';
import { ErrorBody, errorBody } from '../http/error-body';
import { errorCodeFor } from './exchange-error';
import { RestCallStats } from './rest-call-stats';
import { REST_FAMILIES, REST_FAMILY_NAMES, RestFamily, restFamilyOf } from './rest-family';
import { SlidingWindowLimiter } from './sliding-window-limiter';

export const OVERLOADED_MESSAGE = 'System is currently overloaded';

const WINDOW_MS = 1000;

/** A call stopped before its endpoint, with the answer it gets. */
export interface RestRefusal {
  readonly status: HttpStatus;
  readonly body: ErrorBody;
}

export interface RestGateOptions {
  readonly faults: FaultSwitchboard;
  readonly stats: RestCallStats;
  /** Enforce the rate limits of spec 8 (SANDBOX_RATE_LIMITS). */
  readonly rateLimits: boolean;
  /** Draws for the `probability` of the REST faults. */
  readonly random?: () => number;
}

function tooManyRequests(family: RestFamily): RestRefusal {
  const { prefix, requestsPerSecond } = REST_FAMILIES[family];
  const perSecond = `${requestsPerSecond} request${requestsPerSecond === 1 ? '' : 's'} per second`;
  return {
    status: HttpStatus.TOO_MANY_REQUESTS,
    body: errorBody(
      errorCodeFor(HttpStatus.TOO_MANY_REQUESTS),
      `Rate limit exceeded: ${perSecond} under ${prefix}`,
    ),
  };
}

const OVERLOADED: RestRefusal = {
  status: HttpStatus.SERVICE_UNAVAILABLE,
  body: errorBody('', OVERLOADED_MESSAGE),
};

/**
 * Decides what happens to each REST call before its endpoint sees it: first the rate limit of its
 * family per client address (a refused call counts as `limited`), then the injected faults, 503
 * before 429 (counted as `failed`). Calls outside the REST families pass untouched and uncounted.
 */
export class RestGate {
  private readonly limiters: Record<RestFamily, SlidingWindowLimiter>;
  private readonly random: () => number;

  constructor(private readonly options: RestGateOptions) {
    this.random = options.random ?? Math.random;
    this.limiters = Object.fromEntries(
      REST_FAMILY_NAMES.map((family) => [
        family,
        new SlidingWindowLimiter(REST_FAMILIES[family].requestsPerSecond, WINDOW_MS),
      ]),
    ) as Record<RestFamily, SlidingWindowLimiter>;
  }

  /** undefined lets the call through; `now` is a monotonic time in milliseconds. */
  check(url: string, clientAddress: string, now: number): RestRefusal | undefined {
    const family = restFamilyOf(url);
    if (!family) return undefined;
    const { faults, stats, rateLimits } = this.options;
    if (rateLimits && !this.limiters[family].tryAcquire(clientAddress, now)) {
      stats.record(family, 'limited');
      return tooManyRequests(family);
    }
    if (faults.fires('rest-503', this.random)) {
      stats.record(family, 'failed');
      return OVERLOADED;
    }
    if (faults.fires('rest-429', this.random)) {
      stats.record(family, 'failed');
      return tooManyRequests(family);
    }
    stats.record(family, 'served');
    return undefined;
  }
}
