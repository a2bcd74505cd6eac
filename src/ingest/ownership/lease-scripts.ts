import { StoreKeys } from '../../store/keys';
import { LuaScript, ScriptCall } from '../../store/lua-script';

/**
 * Takes the lease of an instrument only if nobody holds it: mints the next fencing token (tokens only
 * grow, even across owners) and stores `{token}:{owner}` with the lease time. Returns the token, or 0
 * when the lease is held.
 *
 * A token is at least the server's time in microseconds (a safe integer): a replica promoted without the counter's
 * last increments (a failover) still mints tokens above those the old primary handed out, as long as
 * the nodes' clocks agree to within the time the failover took.
 *
 * KEYS: lease, lease token counter. ARGV: owner, lease time in ms.
 */
export const ACQUIRE_LEASE = new LuaScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
local token = redis.call('INCR', KEYS[2])
if token < now then
  token = now
  redis.call('SET', KEYS[2], string.format('%d', token))
end
redis.call('SET', KEYS[1], string.format('%d', token) .. ':' .. ARGV[1], 'PX', ARGV[2])
return token
`);

/**
 * Extends a lease only while it holds exactly the caller's token and owner; a lease that ran out,
 * even if nobody took it since, is not brought back. Returns 1 when renewed, 0 otherwise.
 *
 * KEYS: lease. ARGV: lease text, lease time in ms.
 */
export const RENEW_LEASE = new LuaScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
`);

/**
 * Deletes a lease only while it holds exactly the caller's token and owner. Returns 1 when released.
 *
 * KEYS: lease. ARGV: lease text.
 */
export const RELEASE_LEASE = new LuaScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  return 1
end
return 0
`);

/**
 * Renews a replica's membership until (server time + lease time), drops the memberships that ran out,
 * and returns the live members. Server time, so that the replicas' clocks need not agree.
 *
 * KEYS: members. ARGV: replica id, lease time in ms.
 */
export const HEARTBEAT = new LuaScript(`
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
return redis.call('ZRANGE', KEYS[1], 0, -1)
`);

export function acquireCall(keys: StoreKeys, instrument: string, owner: string, ttlMs: number): ScriptCall {
  const { lease, leaseToken } = keys.instrument(instrument);
  return { keys: [lease, leaseToken], args: [owner, String(ttlMs)], group: instrument };
}

export function renewCall(keys: StoreKeys, instrument: string, leaseText: string, ttlMs: number): ScriptCall {
  return { keys: [keys.instrument(instrument).lease], args: [leaseText, String(ttlMs)], group: instrument };
}

export function releaseCall(keys: StoreKeys, instrument: string, leaseText: string): ScriptCall {
  return { keys: [keys.instrument(instrument).lease], args: [leaseText], group: instrument };
}

export function heartbeatCall(keys: StoreKeys, owner: string, ttlMs: number): ScriptCall {
  return { keys: [keys.ingestMembers], args: [owner, String(ttlMs)], group: 'members' };
}
