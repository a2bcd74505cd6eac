import { Trade } from '../market/trade';
import { InstrumentKeys } from './keys';
import { LuaScript, ScriptCall } from './lua-script';
import { TradeTail } from './state-store';
import { compareTradesOldestFirst } from './store-order';
import { decodeTradeMember } from './trade-member';
import {
  decodeMinute,
  isMinuteField,
  MINUTE_COUNT_FIELD,
  MINUTE_MS,
  NEWEST_MINUTE_FIELD,
  OLDEST_MINUTE_FIELD,
  OPEN_MINUTE_FIELD,
  TRADE_MINUTES_LUA,
} from './trade-minutes';

/**
 * The stored trades in one atomic step, from whichever layout holds them: the sorted set while it
 * exists, else the trade minutes while they exist (the writer of each wrote last; see
 * `migrateToOpenMinute`), else the trade history and its open minute.
 *
 * KEYS: trades (sorted set), trade minutes, trade history, open minute. Replies `{'z', ZRANGE
 * WITHSCORES}` or `{'m', HGETALL}` with the open minute as one more field.
 */
export const TRADE_READ_SCRIPT = new LuaScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then
  return {'z', redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')}
end
if redis.call('EXISTS', KEYS[2]) == 1 then
  return {'m', redis.call('HGETALL', KEYS[2])}
end
local flat = redis.call('HGETALL', KEYS[3])
local open = redis.call('HGET', KEYS[3], '${OPEN_MINUTE_FIELD}')
if open then
  flat[#flat + 1] = open
  flat[#flat + 1] = redis.call('GET', KEYS[4]) or ''
end
return {'m', flat}
`);

/**
 * The trades from a time on, with the count and the minute of the oldest, in one atomic step.
 *
 * KEYS and layouts as `TRADE_READ_SCRIPT`. ARGV: from (Unix milliseconds).
 * Replies `{'z', count, those of the oldest time and from on as ZRANGEBYSCORE WITHSCORES}` or
 * `{'m', count, oldest minute, its text, minute, text, ...}` with the minutes from `from`'s on.
 */
export const TRADE_TAIL_SCRIPT = new LuaScript(`
local from = tonumber(ARGV[1])
if redis.call('EXISTS', KEYS[1]) == 1 then
  -- Members of one score come in the order of their text, not of their ids' values.
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2]
  return {'z', redis.call('ZCARD', KEYS[1]), redis.call('ZRANGEBYSCORE', KEYS[1], oldest, oldest, 'WITHSCORES'),
    redis.call('ZRANGEBYSCORE', KEYS[1], from, '+inf', 'WITHSCORES')}
end
local minutes, open = KEYS[2], nil
if redis.call('EXISTS', minutes) == 0 then minutes, open = KEYS[3], KEYS[4] end
local bounds = redis.call('HMGET', minutes, '${MINUTE_COUNT_FIELD}', '${OLDEST_MINUTE_FIELD}',
  '${NEWEST_MINUTE_FIELD}', '${OPEN_MINUTE_FIELD}')
if not bounds[1] then return {'m', 0} end
local lo, hi = tonumber(bounds[2]), tonumber(bounds[3])
local openMinute = open and tonumber(bounds[4])
local openText = openMinute and (redis.call('GET', open) or '')
local reply = {'m', tonumber(bounds[1]), bounds[2],
  (lo == openMinute and openText) or redis.call('HGET', minutes, bounds[2]) or ''}
local first = math.max(lo, math.floor(from / ${MINUTE_MS}))
for m = first, hi, 1000 do
  local fields = {}
  for minute = m, math.min(m + 999, hi) do fields[#fields + 1] = string.format('%d', minute) end
  local texts = redis.call('HMGET', minutes, unpack(fields))
  for i, text in ipairs(fields) do
    if texts[i] then
      reply[#reply + 1] = text
      reply[#reply + 1] = texts[i]
    end
  end
end
if openMinute and openMinute >= first then
  reply[#reply + 1] = bounds[4]
  reply[#reply + 1] = openText
end
return reply
`);

/**
 * Drops the trades with time <= before from the layout that holds them. KEYS as
 * `TRADE_READ_SCRIPT`. ARGV: before. Replies the number dropped. The keys of a later layout beside
 * an earlier one's are what its writer left before a writer of the earlier layout replaced the
 * instrument's state: nobody reads them, and the next writer of the later layout would replace
 * them, so they go.
 */
export const TRADE_TRIM_SCRIPT = new LuaScript(`
${TRADE_MINUTES_LUA}
local before = ARGV[1]
if redis.call('EXISTS', KEYS[1]) == 1 then
  redis.call('DEL', KEYS[2], KEYS[3], KEYS[4])
  return redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', before)
end
if redis.call('EXISTS', KEYS[2]) == 1 then
  redis.call('DEL', KEYS[3], KEYS[4])
  return trimMinutes(KEYS[2], tonumber(before))
end
return trimMinutes(KEYS[3], tonumber(before), KEYS[4])
`);

export function tradeKeysCall(instrument: string, keys: InstrumentKeys, args: string[] = []): ScriptCall {
  return {
    keys: [keys.trades, keys.tradeMinutes, keys.tradeHistory, keys.tradeOpenMinute],
    args,
    group: instrument,
  };
}

/** The trades of a `TRADE_READ_SCRIPT` reply, oldest first. */
export function tradeReadReply(reply: unknown, instrument: string): Trade[] {
  const [layout, flat] = reply as [string, string[]];
  if (layout === 'z') return decodeMembers(flat, instrument);
  const trades: Trade[] = [];
  for (let index = 0; index < flat.length; index += 2)
    if (isMinuteField(flat[index])) decodeMinute(flat[index + 1], Number(flat[index]), instrument, trades);
  return trades.sort(compareTradesOldestFirst);
}

/** The trades of a `WITHSCORES` reply of the sorted set, oldest first. */
function decodeMembers(flat: readonly string[], instrument: string): Trade[] {
  const trades: Trade[] = [];
  for (let index = 0; index < flat.length; index += 2)
    trades.push(decodeTradeMember(flat[index], instrument, Number(flat[index + 1])));
  return trades.sort(compareTradesOldestFirst);
}

/** The `TradeTail` of a `TRADE_TAIL_SCRIPT` reply. */
export function tradeTailReply(reply: unknown, instrument: string, from: number): TradeTail {
  const parts = reply as unknown[];
  const count = Number(parts[1]);
  if (parts[0] === 'z') {
    const [oldest] = decodeMembers(parts[2] as string[], instrument);
    return {
      trades: decodeMembers(parts[3] as string[], instrument),
      count,
      ...(oldest ? { oldest } : {}),
    };
  }
  if (count === 0) return { trades: [], count: 0 };
  const oldestMinute = decodeMinute(parts[3] as string, Number(parts[2]), instrument);
  const trades: Trade[] = [];
  for (let index = 4; index < parts.length; index += 2)
    decodeMinute(parts[index + 1] as string, Number(parts[index]), instrument, trades);
  return {
    trades: trades.filter((trade) => trade.time >= from).sort(compareTradesOldestFirst),
    count,
    oldest: oldestMinute.sort(compareTradesOldestFirst)[0],
  };
}
