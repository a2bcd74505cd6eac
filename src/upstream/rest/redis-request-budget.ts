import { randomUUID } from 'node:crypto';
import { AppConfig } from '../../config/app-config';
import { DEFAULT_KEY_PREFIX } from '../../store/keys';
import { RedisClient } from '../../store/redis-client';
import { createRedisClient, RedisLocation, reportConnectionErrors } from '../../store/redis-connection';
import { OwnRequestWindow } from './own-request-window';
import { BudgetLogger, RedisBudgetConnection } from './redis-budget-connection';
import {
  BudgetTerms,
  budgetKeys,
  COUNT_SCRIPT,
  countCall,
  parseCountReply,
  parseTakeReply,
  RELEASE_SCRIPT,
  releaseCall,
  RENEW_SCRIPT,
  renewCall,
  TAKE_SCRIPT,
  takeCall,
  WITHDRAW_SCRIPT,
  withdrawCall,
} from './redis-budget-scripts';
import { BudgetUsage, REST_RATE_LIMITS, RequestBudget, RequestPermit, RestFamily } from './request-budget';
import { DEFAULT_MARGIN_MS, DEFAULT_WINDOW_MS } from './token-bucket-budget';

export interface RedisRequestBudgetOptions {
  /** Prefix of the budget's keys; replicas share a budget when they share Redis and prefix. `mdg` by default. */
  readonly prefix?: string;
  /** Requests per window per family; defaults to the exchange's limits (1 /frontoffice/, 2 /marketdata/). */
  readonly limits?: Partial<Readonly<Record<RestFamily, number>>>;
  /** The window the exchange counts requests in. */
  readonly windowMs?: number;
  /** Extra time a permit counts beyond the window, for clock granularity on either side. */
  readonly marginMs?: number;
  /**
   * A held permit counts until this long after its holder last renewed it (every third of it), so
   * that the permits of a crashed replica free themselves. At least twice window plus margin, so that
   * a holder that can no longer renew still covers the window after its request's end. 5000 ms by default.
   */
  readonly leaseMs?: number;
  /** After a failed Redis call, permits follow this process's own count for this long; 1000 ms by default. */
  readonly fallbackMs?: number;
  /** Whether `close()` also closes the client; false by default. */
  readonly closeClient?: boolean;
  readonly logger?: BudgetLogger;
  /** Uniform in [0, 1): jitter of the polls. */
  readonly random?: () => number;
}

export const DEFAULT_LEASE_MS = 5_000;
export const DEFAULT_FALLBACK_MS = 1_000;
/** Longest sleep between two polls of a waiting replica. */
export const MAX_POLL_MS = 250;
/** Shortest sleep between two polls, e.g. while free permits go to replicas that came first. */
export const MIN_POLL_MS = 10;
/** Up to this much is added to each sleep, so that replicas do not poll in step. */
export const POLL_JITTER_MS = 10;
/** A seat in the queue not polled for this long belongs to a replica that is gone. */
const SEAT_TTL_MS = 4 * (MAX_POLL_MS + POLL_JITTER_MS);

const SILENT: BudgetLogger = { warn: () => undefined };

/** How long a waiting replica sleeps before it polls again, given the take script's `waitMs`. */
export function pollDelayMs(waitMs: number, random: () => number): number {
  return Math.min(Math.max(waitMs, MIN_POLL_MS), MAX_POLL_MS) + Math.floor(random() * POLL_JITTER_MS);
}

interface Waiter {
  readonly resolve: (permit: RequestPermit) => void;
  readonly reject: (reason: unknown) => void;
  readonly signal?: AbortSignal;
  readonly onAbort: () => void;
}

/**
 * One family of the shared budget in this process. Local callers queue here, first come first
 * served; a single pump seeks a permit for the caller at the head, holding one seat in the Redis
 * queue, so that replicas take turns by arrival.
 */
class SharedFamily {
  private readonly waiters: Waiter[] = [];
  private readonly own: OwnRequestWindow;
  /** Ids of the shared permits held here, renewed until released. */
  readonly held = new Set<string>();
  private pumping = false;
  /** Ends the pump's current sleep. */
  private wake: (() => void) | undefined;
  /** The permit sought in Redis: its seat in the queue until granted. */
  private seat: string | undefined;

  constructor(
    readonly terms: BudgetTerms,
    private readonly redis: RedisBudgetConnection,
    private readonly newId: () => string,
    private readonly random: () => number,
  ) {
    this.own = new OwnRequestWindow(terms.limit, terms.holdMs);
  }

  take(signal?: AbortSignal): Promise<RequestPermit> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.redis.isClosed) return Promise.reject(new Error('request budget closed'));
    return new Promise<RequestPermit>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, signal, onAbort: () => this.abandon(waiter) };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      this.waiters.push(waiter);
      void this.pump();
    });
  }

  /** The shared count while Redis answers, else this process's own. */
  async usage(family: RestFamily): Promise<BudgetUsage> {
    const own: BudgetUsage = {
      family,
      limit: this.terms.limit,
      counting: this.own.counting(performance.now()),
      waiting: this.waiters.length,
      scope: 'process',
    };
    if (!this.redis.usable()) return own;
    try {
      const counting = await this.redis.run(COUNT_SCRIPT, countCall(this.terms), parseCountReply);
      return { ...own, counting, scope: 'deployment' };
    } catch {
      return own;
    }
  }

  /** Rejects every waiting caller; permits already granted may still be released. */
  close(): void {
    for (const waiter of this.waiters.splice(0)) {
      waiter.signal?.removeEventListener('abort', waiter.onAbort);
      waiter.reject(new Error('request budget closed'));
    }
    if (this.seat !== undefined) {
      this.withdraw(this.seat);
      this.seat = undefined;
    }
    this.wake?.();
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.waiters.length > 0) {
        const ownWaitMs = this.own.waitMs(performance.now());
        if (ownWaitMs > 0) {
          // Infinity while this process's own requests fill the limit; a release wakes the pump.
          await this.sleep(Math.min(ownWaitMs, 60_000));
        } else if (!this.redis.usable()) {
          this.grant(undefined);
        } else {
          const seat = (this.seat ??= this.newId());
          let reply;
          try {
            reply = await this.redis.run(TAKE_SCRIPT, takeCall(this.terms, seat), parseTakeReply);
          } catch {
            continue; // now in the fallback period
          }
          if (reply.granted) {
            if (this.seat === seat) this.seat = undefined;
            this.grant(seat);
          } else {
            await this.sleep(pollDelayMs(reply.waitMs, this.random));
          }
        }
      }
    } finally {
      this.pumping = false;
      if (this.seat !== undefined) {
        this.withdraw(this.seat);
        this.seat = undefined;
      }
    }
  }

  /** Hands a permit to the caller at the head: a shared one by its id, or one of the own count only. */
  private grant(shared: string | undefined): void {
    const waiter = this.waiters.shift();
    if (!waiter) {
      // Its caller gave up while the permit was on its way; nothing was sent with it.
      if (shared !== undefined) this.withdraw(shared);
      return;
    }
    waiter.signal?.removeEventListener('abort', waiter.onAbort);
    this.own.start();
    if (shared !== undefined) this.held.add(shared);
    waiter.resolve(this.permit(shared));
  }

  private permit(shared: string | undefined): RequestPermit {
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.own.end(performance.now());
        if (shared !== undefined) {
          this.held.delete(shared);
          // Should this fail, the permit's lease still covers the window after the request's end.
          if (!this.redis.isClosed) {
            this.redis.run(RELEASE_SCRIPT, releaseCall(this.terms, shared)).catch(() => undefined);
          }
        }
        this.wake?.();
      },
    };
  }

  private withdraw(seat: string): void {
    if (this.redis.isClosed) return;
    // Should this fail, the seat and any permit expire by themselves.
    this.redis.run(WITHDRAW_SCRIPT, withdrawCall(this.terms, seat)).catch(() => undefined);
  }

  private abandon(waiter: Waiter): void {
    const index = this.waiters.indexOf(waiter);
    if (index < 0) return;
    this.waiters.splice(index, 1);
    waiter.reject(waiter.signal!.reason);
    // With nobody left, the pump ends now and gives up its seat.
    if (this.waiters.length === 0) this.wake?.();
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
    });
  }
}

/**
 * The request budget shared by every replica that uses the same Redis and key prefix, with the
 * semantics of `TokenBucketBudget`: per family at most `limit` permits count at any time, each from
 * its grant until one window plus margin after its release, because the exchange counts a request
 * when it arrives.
 *
 * Per family a sorted set in Redis holds the permits with the time each stops counting, maintained
 * by Lua scripts on Redis' clock (`redis-budget-scripts.ts`). Waiting replicas hold seats in a queue
 * and poll with short jittered sleeps sized by when the next permit frees; free permits go to the
 * earliest seats, and within a replica to the earliest caller. Holders renew the leases of running
 * requests, so the permits of a crashed replica free themselves after one lease.
 *
 * While Redis is unreachable (or a call fails), each replica keeps the limits on its own requests,
 * which it counts all the time: it stays within them alone, but replicas that share one address may
 * then draw 429s, which the REST client retries with backoff. Redis never learns of requests granted
 * that way, so for one window after it is back the replicas together may exceed the limit.
 */
export class RedisRequestBudget implements RequestBudget {
  private readonly redis: RedisBudgetConnection;
  private readonly families: Record<RestFamily, SharedFamily>;
  private readonly closeClient: boolean;
  private readonly instance = randomUUID();
  private permitCount = 0;
  private readonly renewTimer: NodeJS.Timeout;

  /** A budget with its own connection to the configured Redis (or Redis Cluster), closed with the budget. */
  static fromConfig(
    config: RedisLocation & Pick<AppConfig, 'REDIS_PREFIX'>,
    options: Omit<RedisRequestBudgetOptions, 'prefix' | 'closeClient'> = {},
  ): RedisRequestBudget {
    const client = createRedisClient(config, {
      connectionName: `${config.REDIS_PREFIX}-rest-budget`,
      // A hung server should not hold requests for long: a failed call starts the fallback period.
      commandTimeoutMs: 1_000,
    });
    reportConnectionErrors(client, options.logger ?? SILENT, 'Redis (REST budget)');
    return new RedisRequestBudget(client, { ...options, prefix: config.REDIS_PREFIX, closeClient: true });
  }

  constructor(client: RedisClient, options: RedisRequestBudgetOptions = {}) {
    const windowMs = options.windowMs ?? DEFAULT_WINDOW_MS;
    const marginMs = options.marginMs ?? DEFAULT_MARGIN_MS;
    if (!(windowMs > 0)) throw new RangeError('windowMs must be positive');
    if (!(marginMs >= 0)) throw new RangeError('marginMs must not be negative');
    const holdMs = windowMs + marginMs;
    const leaseMs = options.leaseMs ?? Math.max(DEFAULT_LEASE_MS, 2 * holdMs);
    if (!(leaseMs >= 2 * holdMs)) throw new RangeError('leaseMs must be at least twice windowMs + marginMs');
    const fallbackMs = options.fallbackMs ?? DEFAULT_FALLBACK_MS;
    if (!(fallbackMs >= 0)) throw new RangeError('fallbackMs must not be negative');
    const prefix = options.prefix ?? DEFAULT_KEY_PREFIX;
    const random = options.random ?? Math.random;
    this.closeClient = options.closeClient ?? false;
    this.redis = new RedisBudgetConnection(client, fallbackMs, options.logger ?? SILENT);
    const family = (name: RestFamily): SharedFamily => {
      const limit = options.limits?.[name] ?? REST_RATE_LIMITS[name];
      if (!Number.isInteger(limit) || limit < 1) {
        throw new RangeError(`limit of ${name} must be a positive integer`);
      }
      const terms = { keys: budgetKeys(prefix, name), limit, leaseMs, holdMs, seatTtlMs: SEAT_TTL_MS };
      return new SharedFamily(terms, this.redis, () => this.nextId(), random);
    };
    this.families = { frontoffice: family('frontoffice'), marketdata: family('marketdata') };
    this.renewTimer = setInterval(() => this.renew(), leaseMs / 3);
    this.renewTimer.unref();
  }

  acquire(family: RestFamily, signal?: AbortSignal): Promise<RequestPermit> {
    return this.families[family].take(signal);
  }

  usage(): Promise<readonly BudgetUsage[]> {
    return Promise.all(
      Object.entries(this.families).map(([name, family]) => family.usage(name as RestFamily)),
    );
  }

  /** Resolves true once the connection to Redis is up, false when `timeoutMs` passed first. */
  connected(timeoutMs: number): Promise<boolean> {
    return this.redis.connected(timeoutMs);
  }

  /**
   * Rejects the callers still waiting. Granted permits may still be released; in Redis they count
   * until they expire.
   */
  async close(): Promise<void> {
    clearInterval(this.renewTimer);
    for (const family of Object.values(this.families)) family.close();
    await this.redis.close(this.closeClient);
  }

  private nextId(): string {
    this.permitCount += 1;
    return `${this.instance}:${this.permitCount.toString(36)}`;
  }

  /** Extends the leases of the permits whose requests still run. */
  private renew(): void {
    if (this.redis.isClosed) return;
    for (const family of Object.values(this.families)) {
      if (family.held.size === 0) continue;
      this.redis.run(RENEW_SCRIPT, renewCall(family.terms, [...family.held])).catch(() => undefined);
    }
  }
}
