import { EventEmitter } from 'node:events';
import { RedisClient } from '../../store/redis-client';
import { budgetKeys, parseTakeReply, takeCall } from './redis-budget-scripts';
import {
  MAX_POLL_MS,
  MIN_POLL_MS,
  POLL_JITTER_MS,
  pollDelayMs,
  RedisRequestBudget,
} from './redis-request-budget';
import { RestFamily } from './request-budget';
import { requestMany as requestManyAt } from './testing/request-many';

/** A connection that never becomes ready, as when Redis is down from the start. */
function unreachableRedis(): RedisClient {
  return Object.assign(new EventEmitter(), { status: 'reconnecting' }) as unknown as RedisClient;
}

describe('RedisRequestBudget scripts', () => {
  it('keeps the keys of one family under one hash tag, after the prefix', () => {
    expect(budgetKeys('mdg', 'marketdata')).toEqual({
      permits: 'mdg:{rest-budget:marketdata}:permits',
      queue: 'mdg:{rest-budget:marketdata}:queue',
      seen: 'mdg:{rest-budget:marketdata}:seen',
    });
    expect(() => budgetKeys('a{b', 'frontoffice')).toThrow('invalid key prefix');
    expect(() => budgetKeys('', 'frontoffice')).toThrow('invalid key prefix');
  });

  it('passes the terms to the take script, with keys that outlive every entry', () => {
    const terms = {
      keys: budgetKeys('p', 'frontoffice'),
      limit: 1,
      leaseMs: 5000,
      holdMs: 1020,
      seatTtlMs: 1040,
    };
    expect(takeCall(terms, 'seat-1')).toEqual({
      keys: [
        'p:{rest-budget:frontoffice}:permits',
        'p:{rest-budget:frontoffice}:queue',
        'p:{rest-budget:frontoffice}:seen',
      ],
      args: ['1', 'seat-1', '5000', '1020', '1040', '6000'],
      group: 'p:{rest-budget:frontoffice}:permits',
    });
  });

  it('reads the take reply and refuses anything else', () => {
    expect(parseTakeReply([1, 0])).toEqual({ granted: true });
    expect(parseTakeReply([0, 437])).toEqual({ granted: false, waitMs: 437 });
    expect(parseTakeReply([0, -3])).toEqual({ granted: false, waitMs: 0 });
    expect(() => parseTakeReply('OK')).toThrow('unexpected reply');
    expect(() => parseTakeReply([1])).toThrow('unexpected reply');
    expect(() => parseTakeReply(['1', '0'])).toThrow('unexpected reply');
  });

  it('sleeps between polls as long as the script says, within bounds, with jitter', () => {
    expect(pollDelayMs(0, () => 0)).toBe(MIN_POLL_MS);
    expect(pollDelayMs(120, () => 0)).toBe(120);
    expect(pollDelayMs(120, () => 0.999)).toBe(120 + POLL_JITTER_MS - 1);
    expect(pollDelayMs(1020, () => 0)).toBe(MAX_POLL_MS);
  });
});

describe('RedisRequestBudget without Redis', () => {
  let start: number;
  const elapsed = () => performance.now() - start;

  beforeEach(() => {
    jest.useFakeTimers();
    start = performance.now();
  });
  afterEach(() => jest.useRealTimers());

  const requestMany = (budget: RedisRequestBudget, family: RestFamily, count: number, durationMs = 0) =>
    requestManyAt(budget, family, count, elapsed, durationMs);

  it('keeps the limits on its own requests, each counting until one window plus margin after its end', async () => {
    const budget = new RedisRequestBudget(unreachableRedis(), { marginMs: 100 });
    const frontoffice = requestMany(budget, 'frontoffice', 3, 400);
    const marketdata = requestMany(budget, 'marketdata', 4);
    await jest.advanceTimersByTimeAsync(5000);
    expect(frontoffice).toEqual([0, 1500, 3000]);
    expect(marketdata).toEqual([0, 0, 1100, 1100]);
    await budget.close();
  });

  it('rejects an aborted wait with its reason, and it uses up nothing', async () => {
    const budget = new RedisRequestBudget(unreachableRedis(), { marginMs: 0 });
    const first = await budget.acquire('frontoffice');
    const controller = new AbortController();
    const abandoned = budget.acquire('frontoffice', controller.signal);
    const next = requestMany(budget, 'frontoffice', 1);
    await jest.advanceTimersByTimeAsync(300);
    controller.abort('stop');
    await expect(abandoned).rejects.toBe('stop');
    first.release();
    await jest.advanceTimersByTimeAsync(1000);
    expect(next).toEqual([1300]);
    await expect(budget.acquire('frontoffice', AbortSignal.abort('gone'))).rejects.toBe('gone');
    await budget.close();
  });

  it('rejects the callers still waiting when closed, and new ones after', async () => {
    const budget = new RedisRequestBudget(unreachableRedis());
    await budget.acquire('frontoffice');
    const waiting = budget.acquire('frontoffice');
    await budget.close();
    await expect(waiting).rejects.toThrow('request budget closed');
    await expect(budget.acquire('marketdata')).rejects.toThrow('request budget closed');
  });

  it('rejects impossible settings', () => {
    const redis = unreachableRedis();
    expect(() => new RedisRequestBudget(redis, { limits: { marketdata: 0 } })).toThrow(RangeError);
    expect(() => new RedisRequestBudget(redis, { windowMs: 0 })).toThrow(RangeError);
    expect(() => new RedisRequestBudget(redis, { leaseMs: 1500 })).toThrow('leaseMs must be at least twice');
    expect(() => new RedisRequestBudget(redis, { prefix: 'a b' })).toThrow('invalid key prefix');
  });
});
