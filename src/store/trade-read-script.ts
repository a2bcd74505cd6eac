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
  TRADE_MINUTES_LUA,
} from './trade-minutes';

/**
 * The stored trades in one atomic step, from whichever layout holds them: the old sorted set while
 * it exists (an older writer wrote it last; see `migrateSortedSet`), else the trade minutes.
 *
 * KEYS: trades (sorted set), trade minutes. Replies `{'z', ZRANGE WITHSCORES}` or `{'m', HGETALL}`.
 */
export const TRADE_READ_SCRIPT = new LuaScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then
  return {'z', redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')}
end
return {'m', redis.call('HGETALL', KEYS[2])}
`);

/**
 * The trades from a time on, with the count and the minute of the oldest, in one atomic step.
 *
 * KEYS: trades (sorted set), trade minutes. ARGV: from (Unix milliseconds).
 * Replies `{'z', count, oldest as ZRANGE 0 0 WITHSCORES, from on as ZRANGEBYSCORE WITHSCORES}` or
 * `{'m', count, oldest minute, its text, minute, text, ...}` with the minutes from `from`'s on.
 */
export const TRADE_TAIL_SCRIPT = new LuaScript(`
local from = tonumber(ARGV[1])
if redis.call('EXISTS', KEYS[1]) == 1 then
  return {'z', redis.call('ZCARD', KEYS[1]), redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES'),
    redis.call('ZRANGEBYSCORE', KEYS[1], from, '+inf', 'WITHSCORES')}
end
local bounds = redis.call('HMGET', KEYS[2], '${MINUTE_COUNT_FIELD}', '${OLDEST_MINUTE_FIELD}', '${NEWEST_MINUTE_FIELD}')
if not bounds[1] then return {'m', 0} end
local lo, hi = tonumber(bounds[2]), tonumber(bounds[3])
local reply = {'m', tonumber(bounds[1]), bounds[2], redis.call('HGET', KEYS[2], bounds[2]) or ''}
local first = math.max(lo, math.floor(from / ${MINUTE_MS}))
for m = first, hi, 1000 do
  local fields = {}
  for minute = m, math.min(m + 999, hi) do fields[#fields + 1] = string.format('%d', minute) end
  local texts = redis.call('HMGET', KEYS[2], unpack(fields))
  for i, text in ipairs(fields) do
    if texts[i] then
      reply[#reply + 1] = text
      reply[#reply + 1] = texts[i]
    end
  end
end
return reply
`);

/**
 * Drops the trades with time <= before from the layout that holds them. KEYS: trades, trade
 * minutes. ARGV: before. Replies the number dropped. Minutes beside a sorted set are what a newer
 * writer left before an older one replaced the instrument's state: nobody reads them, and the next
 * newer writer would replace them, so they go.
 */
export const TRADE_TRIM_SCRIPT = new LuaScript(`
${TRADE_MINUTES_LUA}
local before = ARGV[1]
if redis.call('EXISTS', KEYS[1]) == 1 then
  redis.call('DEL', KEYS[2])
  return redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', before)
end
return trimMinutes(KEYS[2], tonumber(before))
`);

export function tradeKeysCall(instrument: string, keys: InstrumentKeys, args: string[] = []): ScriptCall {
  return { keys: [keys.trades, keys.tradeMinutes], args, group: instrument };
}

/** The trades of a `TRADE_READ_SCRIPT` reply, oldest first. */
export function tradeReadReply(reply: unknown, instrument: string): Trade[] {
  const [layout, flat] = reply as [string, string[]];
  const trades: Trade[] = [];
  if (layout === 'z') {
    for (let index = 0; index < flat.length; index += 2)
      trades.push(decodeTradeMember(flat[index], instrument, Number(flat[index + 1])));
  } else {
    for (let index = 0; index < flat.length; index += 2)
      if (isMinuteField(flat[index])) decodeMinute(flat[index + 1], Number(flat[index]), instrument, trades);
  }
  return trades.sort(compareTradesOldestFirst);
}

/** The `TradeTail` of a `TRADE_TAIL_SCRIPT` reply. */
export function tradeTailReply(reply: unknown, instrument: string, from: number): TradeTail {
  const parts = reply as unknown[];
  const count = Number(parts[1]);
  if (parts[0] === 'z') {
    const oldest = parts[2] as string[];
    const newest = parts[3] as string[];
    const trades: Trade[] = [];
    for (let index = 0; index < newest.length; index += 2)
      trades.push(decodeTradeMember(newest[index], instrument, Number(newest[index + 1])));
    return {
      trades: trades.sort(compareTradesOldestFirst),
      count,
      ...(oldest.length === 2 ? { oldest: decodeTradeMember(oldest[0], instrument, Number(oldest[1])) } : {}),
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
