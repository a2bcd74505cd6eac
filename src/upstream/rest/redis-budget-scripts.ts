import { LuaScript, ScriptCall } from '../../store/lua-script';
import { RestFamily } from './request-budget';

/**
 * The Redis keys of one family's shared budget. They share the hash tag `{rest-budget:family}`, so
 * one Cluster slot holds them and one script may use them all. Every key expires when the budget
 * goes unused.
 */
export interface BudgetKeys {
  /**
   * Sorted set of the permits the exchange may be counting: member = permit id, score = the Redis
   * time (Unix milliseconds) at which the permit stops counting. That is the end of its lease while
   * its request runs (renewed by the holder), one window plus margin after the end of its request
   * once released. Members whose time has come are removed by the next script that looks.
   */
  readonly permits: string;
  /**
   * Sorted set of the replicas waiting for a permit, one seat each: member = the id of the permit
   * sought, score = Redis time of arrival. Free permits go to the earliest seats.
   */
  readonly queue: string;
  /** Hash: seat -> Redis time of its last poll. A seat not polled for a while is dropped. */
  readonly seen: string;
}

export function budgetKeys(prefix: string, family: RestFamily): BudgetKeys {
  if (!/^[^\s{}]+$/.test(prefix)) {
    throw new Error(
      `invalid key prefix ${JSON.stringify(prefix)}: must be non-empty, without spaces or braces`,
    );
  }
  const base = `${prefix}:{rest-budget:${family}}`;
  return { permits: `${base}:permits`, queue: `${base}:queue`, seen: `${base}:seen` };
}

/** Redis' own clock in milliseconds, so that the replicas' clocks do not matter. */
const NOW = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + tonumber(time[2]) / 1000
local function ms(value)
  return string.format('%.3f', value)
end
`;

/**
 * Takes a permit for the seat ARGV[2] if one is free and no earlier seat is waiting. Returns
 * {1, 0} when granted (the seat is now a held permit), otherwise {0, wait}: the milliseconds after
 * which polling again may find a free permit (0 when permits are free but earlier seats come first).
 *
 * KEYS: permits, queue, seen. ARGV: limit, seat, lease ms, hold ms, seat ttl ms, key ttl ms.
 */
const TAKE_SOURCE = `${NOW}
local limit = tonumber(ARGV[1])
local seat = ARGV[2]
local leaseMs = tonumber(ARGV[3])
local holdMs = tonumber(ARGV[4])
local seatTtlMs = tonumber(ARGV[5])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ms(now))
for _, other in ipairs(redis.call('ZRANGE', KEYS[2], 0, -1)) do
  local seen = tonumber(redis.call('HGET', KEYS[3], other))
  if other ~= seat and (seen == nil or seen + seatTtlMs <= now) then
    redis.call('ZREM', KEYS[2], other)
    redis.call('HDEL', KEYS[3], other)
  end
end
if not redis.call('ZSCORE', KEYS[2], seat) then
  redis.call('ZADD', KEYS[2], ms(now), seat)
end
local free = limit - redis.call('ZCARD', KEYS[1])
if redis.call('ZRANK', KEYS[2], seat) < free then
  redis.call('ZREM', KEYS[2], seat)
  redis.call('HDEL', KEYS[3], seat)
  redis.call('ZADD', KEYS[1], ms(now + leaseMs), seat)
  redis.call('PEXPIRE', KEYS[1], ARGV[6])
  return {1, 0}
end
redis.call('HSET', KEYS[3], seat, ms(now))
redis.call('PEXPIRE', KEYS[2], ARGV[6])
redis.call('PEXPIRE', KEYS[3], ARGV[6])
if free > 0 then
  return {0, 0}
end
-- A running request frees its permit one hold after it ends, so never sooner than that.
local earliest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return {0, math.ceil(math.min(holdMs, tonumber(earliest[2]) - now))}
`;

/**
 * The request of permit ARGV[1] is over: it counts for one hold more.
 * KEYS: permits. ARGV: permit, hold ms, key ttl ms.
 */
const RELEASE_SOURCE = `${NOW}
redis.call('ZADD', KEYS[1], ms(now + tonumber(ARGV[2])), ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
`;

/**
 * The requests of the permits ARGV[3..] still run: each counts until one lease from now at least.
 * KEYS: permits. ARGV: lease ms, key ttl ms, permits...
 */
const RENEW_SOURCE = `${NOW}
local deadline = now + tonumber(ARGV[1])
for index = 3, #ARGV do
  local score = redis.call('ZSCORE', KEYS[1], ARGV[index])
  if not score or tonumber(score) < deadline then
    redis.call('ZADD', KEYS[1], ms(deadline), ARGV[index])
  end
end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`;

/**
 * Withdraws seat ARGV[1], and the permit of that id if it was granted: no request was sent with it,
 * so the exchange counted nothing. KEYS: permits, queue, seen.
 */
const WITHDRAW_SOURCE = `
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
return 1
`;

/** The permits the exchange may be counting now, every replica's. KEYS: permits. */
const COUNT_SOURCE = `${NOW}
return redis.call('ZCOUNT', KEYS[1], '(' .. ms(now), '+inf')
`;

export const TAKE_SCRIPT = new LuaScript(TAKE_SOURCE);
export const COUNT_SCRIPT = new LuaScript(COUNT_SOURCE);
export const RELEASE_SCRIPT = new LuaScript(RELEASE_SOURCE);
export const RENEW_SCRIPT = new LuaScript(RENEW_SOURCE);
export const WITHDRAW_SCRIPT = new LuaScript(WITHDRAW_SOURCE);

/** What a family's budget needs to know to build its script calls. */
export interface BudgetTerms {
  readonly keys: BudgetKeys;
  readonly limit: number;
  /** How long a held permit counts without renewal. */
  readonly leaseMs: number;
  /** How long a permit counts after its request ended: one window plus margin. */
  readonly holdMs: number;
  /** A seat not polled for this long is dropped, so that a crashed replica does not block the queue. */
  readonly seatTtlMs: number;
}

/** Every key outlives its longest-lived entry by a second, so an unused budget leaves nothing behind. */
function keyTtlMs(terms: BudgetTerms): string {
  return String(Math.ceil(Math.max(terms.leaseMs, terms.holdMs, terms.seatTtlMs)) + 1000);
}

export function takeCall(terms: BudgetTerms, seat: string): ScriptCall {
  const { keys } = terms;
  return {
    keys: [keys.permits, keys.queue, keys.seen],
    args: [
      String(terms.limit),
      seat,
      String(terms.leaseMs),
      String(terms.holdMs),
      String(terms.seatTtlMs),
      keyTtlMs(terms),
    ],
    group: keys.permits,
  };
}

export type TakeReply = { readonly granted: true } | { readonly granted: false; readonly waitMs: number };

/** The take script's reply, checked. */
export function parseTakeReply(value: unknown): TakeReply {
  if (!Array.isArray(value) || value.length !== 2 || !value.every((item) => Number.isInteger(item))) {
    throw new Error(`unexpected reply of the budget script: ${JSON.stringify(value)}`);
  }
  const [granted, waitMs] = value as [number, number];
  return granted === 1 ? { granted: true } : { granted: false, waitMs: Math.max(0, waitMs) };
}

export function releaseCall(terms: BudgetTerms, permit: string): ScriptCall {
  return {
    keys: [terms.keys.permits],
    args: [permit, String(terms.holdMs), keyTtlMs(terms)],
    group: terms.keys.permits,
  };
}

export function renewCall(terms: BudgetTerms, permits: readonly string[]): ScriptCall {
  return {
    keys: [terms.keys.permits],
    args: [String(terms.leaseMs), keyTtlMs(terms), ...permits],
    group: terms.keys.permits,
  };
}

export function withdrawCall(terms: BudgetTerms, seat: string): ScriptCall {
  const { keys } = terms;
  return { keys: [keys.permits, keys.queue, keys.seen], args: [seat], group: keys.permits };
}

export function countCall(terms: BudgetTerms): ScriptCall {
  return { keys: [terms.keys.permits], args: [], group: terms.keys.permits };
}

/** The count script's reply, checked. */
export function parseCountReply(value: unknown): number {
  if (!Number.isInteger(value) || (value as number) < 0) {
    throw new Error(`unexpected reply of the budget script: ${JSON.stringify(value)}`);
  }
  return value as number;
}
