import { Trade } from '../market/trade';
import { InstrumentKeys } from './keys';
import { LuaScript, ScriptCall } from './lua-script';
import { TradeTail } from './state-store';
import { compareTradesOldestFirst } from './store-order';
import {
  decodeMinute,
  isMinuteField,
  MINUTE_COUNT_FIELD,
  MINUTE_MS,
  NEWEST_MINUTE_FIELD,
  OLDEST_MINUTE_FIELD,
  OPEN_MINUTE_FIELD,
  TRADE_HISTORY_LUA,
} from './trade-history';

/**
 * The stored trades in one atomic step: the trade history with the open minute as one more field.
 *
 * KEYS: trade history, open minute. Replies HGETALL of the history, the open minute appended.
 */
export const TRADE_READ_SCRIPT = new LuaScript(`
local flat = redis.call('HGETALL', KEYS[1])
local open = redis.call('HGET', KEYS[1], '${OPEN_MINUTE_FIELD}')
if open then
  flat[#flat + 1] = open
  flat[#flat + 1] = redis.call('GET', KEYS[2]) or ''
end
return flat
`);

/**
 * The trades from a time on, with the count and the minute of the oldest, in one atomic step.
 *
 * KEYS as `TRADE_READ_SCRIPT`. ARGV: from (Unix milliseconds). Replies `{count, oldest minute, its
 * text, minute, text, ...}` with the minutes from `from`'s on, or `{0}` when none is stored.
 */
export const TRADE_TAIL_SCRIPT = new LuaScript(`
local from = tonumber(ARGV[1])
local minutes, open = KEYS[1], KEYS[2]
local bounds = redis.call('HMGET', minutes, '${MINUTE_COUNT_FIELD}', '${OLDEST_MINUTE_FIELD}',
  '${NEWEST_MINUTE_FIELD}', '${OPEN_MINUTE_FIELD}')
if not bounds[1] then return {0} end
local lo, hi = tonumber(bounds[2]), tonumber(bounds[3])
local openMinute = tonumber(bounds[4])
local openText = openMinute and (redis.call('GET', open) or '')
local reply = {tonumber(bounds[1]), bounds[2],
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

/** Drops the trades with time <= before. KEYS as `TRADE_READ_SCRIPT`. ARGV: before. Replies the number dropped. */
export const TRADE_TRIM_SCRIPT = new LuaScript(`
${TRADE_HISTORY_LUA}
return trimMinutes(KEYS[1], tonumber(ARGV[1]), KEYS[2])
`);

export function tradeKeysCall(instrument: string, keys: InstrumentKeys, args: string[] = []): ScriptCall {
  return {
    keys: [keys.tradeHistory, keys.tradeOpenMinute],
    args,
    group: instrument,
  };
}

/** The trades of a `TRADE_READ_SCRIPT` reply, oldest first. */
export function tradeReadReply(reply: unknown, instrument: string): Trade[] {
  const flat = reply as string[];
  const trades: Trade[] = [];
  for (let index = 0; index < flat.length; index += 2)
    if (isMinuteField(flat[index])) decodeMinute(flat[index + 1], Number(flat[index]), instrument, trades);
  return trades.sort(compareTradesOldestFirst);
}

/** The `TradeTail` of a `TRADE_TAIL_SCRIPT` reply. */
export function tradeTailReply(reply: unknown, instrument: string, from: number): TradeTail {
  const parts = reply as unknown[];
  const count = Number(parts[0]);
  if (count === 0) return { trades: [], count: 0 };
  const oldestMinute = decodeMinute(parts[2] as string, Number(parts[1]), instrument);
  const trades: Trade[] = [];
  for (let index = 3; index < parts.length; index += 2)
    decodeMinute(parts[index + 1] as string, Number(parts[index]), instrument, trades);
  return {
    trades: trades.filter((trade) => trade.time >= from).sort(compareTradesOldestFirst),
    count,
    oldest: oldestMinute.sort(compareTradesOldestFirst)[0],
  };
}
