import { BudgetUsage, REST_RATE_LIMITS, RequestBudget, RequestPermit, RestFamily } from './request-budget';

export interface TokenBucketBudgetOptions {
  /** Requests per window per family; defaults to the exchange's limits (1 /frontoffice/, 2 /marketdata/). */
  readonly limits?: Partial<Readonly<Record<RestFamily, number>>>;
  /** The window the exchange counts requests in. */
  readonly windowMs?: number;
  /** Extra time a token stays away beyond the window, for clock granularity on either side. */
  readonly marginMs?: number;
  /** Monotonic clock in milliseconds. */
  readonly now?: () => number;
}

export const DEFAULT_WINDOW_MS = 1000;
export const DEFAULT_MARGIN_MS = 20;

interface Waiter {
  readonly resolve: (permit: RequestPermit) => void;
  readonly reject: (reason: unknown) => void;
  readonly signal?: AbortSignal;
  readonly onAbort: () => void;
}

/**
 * One family's bucket of `capacity` tokens. A token is out while its request runs and comes back
 * `hold` milliseconds after the request is over.
 *
 * Two simpler buckets fail against the exchange. One that refills continuously (N tokens per
 * second, N at most) admits up to 2N requests within one second, and the exchange answers 429 to
 * anything above N in any one-second window. One that returns each token a window after it was
 * handed out breaks when a request reaches the exchange late (a cold connection easily takes
 * hundreds of milliseconds), because the exchange counts the request when it arrives. Every arrival
 * lies before the end of its request, so a window measured from there holds.
 */
class FamilyBucket {
  private outstanding = 0;
  /** When each returning token is back, earliest first. */
  private readonly returns: number[] = [];
  private readonly waiters: Waiter[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    readonly capacity: number,
    private readonly holdMs: number,
    private readonly now: () => number,
  ) {}

  usage(family: RestFamily): BudgetUsage {
    const now = this.now();
    while (this.returns.length > 0 && this.returns[0] <= now) this.returns.shift();
    return {
      family,
      limit: this.capacity,
      counting: this.outstanding + this.returns.length,
      waiting: this.waiters.length,
      scope: 'process',
    };
  }

  take(signal?: AbortSignal): Promise<RequestPermit> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<RequestPermit>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, signal, onAbort: () => this.abandon(waiter) };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      this.waiters.push(waiter);
      this.grant();
    });
  }

  /** Hands free tokens to the waiters in arrival order, and wakes up when the next token is back. */
  private grant(): void {
    const now = this.now();
    while (this.returns.length > 0 && this.returns[0] <= now) this.returns.shift();
    while (this.waiters.length > 0 && this.outstanding + this.returns.length < this.capacity) {
      const waiter = this.waiters.shift()!;
      waiter.signal?.removeEventListener('abort', waiter.onAbort);
      this.outstanding += 1;
      waiter.resolve(this.permit());
    }
    if (this.waiters.length > 0 && this.returns.length > 0 && this.timer === undefined) {
      const delay = Math.max(1, Math.ceil(this.returns[0] - now));
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.grant();
      }, delay);
    }
  }

  private permit(): RequestPermit {
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.outstanding -= 1;
        // The clock is monotonic, so appending keeps the return times in order.
        this.returns.push(this.now() + this.holdMs);
        this.grant();
      },
    };
  }

  private abandon(waiter: Waiter): void {
    const index = this.waiters.indexOf(waiter);
    if (index < 0) return;
    this.waiters.splice(index, 1);
    if (this.waiters.length === 0 && this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    waiter.reject(waiter.signal!.reason);
  }
}

/**
 * The request budget of one process: per family, at most `limit` requests running or ended less
 * than `windowMs + marginMs` ago, served first come, first served. Families are independent.
 */
export class TokenBucketBudget implements RequestBudget {
  private readonly buckets: Record<RestFamily, FamilyBucket>;

  constructor(options: TokenBucketBudgetOptions = {}) {
    const windowMs = options.windowMs ?? DEFAULT_WINDOW_MS;
    const marginMs = options.marginMs ?? DEFAULT_MARGIN_MS;
    const now = options.now ?? (() => performance.now());
    if (!(windowMs > 0)) throw new RangeError('windowMs must be positive');
    if (!(marginMs >= 0)) throw new RangeError('marginMs must not be negative');
    const bucket = (family: RestFamily): FamilyBucket => {
      const limit = options.limits?.[family] ?? REST_RATE_LIMITS[family];
      if (!Number.isInteger(limit) || limit < 1) {
        throw new RangeError(`limit of ${family} must be a positive integer`);
      }
      return new FamilyBucket(limit, windowMs + marginMs, now);
    };
    this.buckets = { frontoffice: bucket('frontoffice'), marketdata: bucket('marketdata') };
  }

  acquire(family: RestFamily, signal?: AbortSignal): Promise<RequestPermit> {
    return this.buckets[family].take(signal);
  }

  usage(): Promise<readonly BudgetUsage[]> {
    const families = Object.keys(this.buckets) as RestFamily[];
    return Promise.resolve(families.map((family) => this.buckets[family].usage(family)));
  }
}
