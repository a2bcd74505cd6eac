import { Trade } from '../market/trade';

/**
 * The stored trades of an instrument packed per minute: the hash `InstrumentKeys.tradeHistory`,
 * whose field `{minute}` (Unix milliseconds / 60,000, floored) holds the trades of that minute as
 * one text, each trade a line `\n{id} {ms into the minute} {b|s} {price} {amount}`, in the order
 * they were added; all but the open minute, which is a string apart (`trade-open-minute.ts`).
 * Three more fields: `n` the number of trades held, `lo` and `hi` the oldest and newest minute
 * held. The hash is deleted when it holds no trade.
 *
 * A line in a minute's text costs Redis about 40 bytes, and the hash's own cost per field is shared
 * by a minute of trades (BENCHMARKS.md).
 */
export const MINUTE_MS = 60_000;

export const MINUTE_COUNT_FIELD = 'n';
export const OLDEST_MINUTE_FIELD = 'lo';
export const NEWEST_MINUTE_FIELD = 'hi';
/** The open minute, its newest trade time and the ids of that time (`trade-open-minute.ts`). */
export const OPEN_MINUTE_FIELD = 'om';
export const OPEN_NEWEST_TIME_FIELD = 'ot';
export const OPEN_NEWEST_IDS_FIELD = 'oi';

/**
 * The last millisecond of the last whole minute at or before `time`. Writers trim stored trades by
 * whole minutes: a cut in a minute's middle makes the script read and rewrite that minute, and
 * readers bound the 24-hour window by time themselves, so the minute of older trades kept is never
 * served.
 */
export function wholeMinutesBefore(time: number): number {
  return Math.floor((time + 1) / MINUTE_MS) * MINUTE_MS - 1;
}

/** The trades of one minute's text, in stored order (not sorted). */
export function decodeMinute(text: string, minute: number, instrument: string, into: Trade[] = []): Trade[] {
  const start = minute * MINUTE_MS;
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const parts = line.split(' ');
    if (parts.length !== 5 || (parts[2] !== 'b' && parts[2] !== 's')) {
      throw new Error(`malformed trade line ${JSON.stringify(line)} of ${instrument}, minute ${minute}`);
    }
    const [id, offset, side, price, amount] = parts;
    into.push({
      id,
      instrument,
      price,
      amount,
      side: side === 'b' ? 'buy' : 'sell',
      time: start + Number(offset),
    });
  }
  return into;
}

/** Whether a hash field names a minute (the others are counters and the open minute's bounds). */
export function isMinuteField(field: string): boolean {
  return /^\d+$/.test(field);
}

/**
 * Lua shared by the scripts that change the stored trades:
 * - `parseTrades(list)` reads trades given as `score id|side|price|amount ...` (what the write's
 *   change message carries too); `addToMinutes(minutes, parsed)` adds them to the hash, skipping
 *   an id its minute already holds.
 * - `trimMinutes(minutes, before, open)` drops every trade with time <= before, `open` naming the
 *   string of the open minute (`trade-open-minute.ts`).
 * Both keep `n`, `lo` and `hi`, and return how many trades they added or dropped.
 */
export const TRADE_HISTORY_LUA = `
local MINUTE = ${MINUTE_MS}

local function linesIn(text)
  local count = 0
  for _ in string.gmatch(text, '\\n') do count = count + 1 end
  return count
end

-- The oldest minute field (the counters are not numbers), or the open minute when older.
local function oldestMinute(minutes, openMinute)
  local lowest = openMinute
  for _, field in ipairs(redis.call('HKEYS', minutes)) do
    local m = tonumber(field)
    if m and (lowest == nil or m < lowest) then lowest = m end
  end
  return lowest
end

-- Each trade as {minute, id, its line, time}, in the list's order.
local function parseTrades(list)
  local parsed = {}
  for score, id, side, price, amount in string.gmatch(list, '(%S+) ([^|%s]+)|([bs])|([^|%s]+)|(%S+)') do
    local time = tonumber(score)
    local m = math.floor(time / MINUTE)
    parsed[#parsed + 1] = { m, id,
      '\\n' .. id .. ' ' .. string.format('%d', time - m * MINUTE) .. ' ' .. side .. ' ' .. price .. ' ' .. amount, time }
  end
  return parsed
end

local function addToMinutes(minutes, parsed)
  -- Per minute touched: its stored text, the lines to append and the ids they hold. The lines are
  -- joined once at the end: appending them one by one would copy a busy minute's text per trade.
  local stored, lines, ids, touched = {}, {}, {}, {}
  local added = 0
  for _, trade in ipairs(parsed) do
    local m, id = trade[1], trade[2]
    if stored[m] == nil then
      stored[m] = redis.call('HGET', minutes, string.format('%d', m)) or ''
      lines[m], ids[m] = {}, {}
      touched[#touched + 1] = m
    end
    if not ids[m][id] and not string.find(stored[m], '\\n' .. id .. ' ', 1, true) then
      ids[m][id] = true
      local into = lines[m]
      into[#into + 1] = trade[3]
      added = added + 1
    end
  end
  if added == 0 then return 0 end
  local lo = tonumber(redis.call('HGET', minutes, '${OLDEST_MINUTE_FIELD}'))
  local hi = tonumber(redis.call('HGET', minutes, '${NEWEST_MINUTE_FIELD}'))
  local fields = {}
  for _, m in ipairs(touched) do
    if #lines[m] > 0 then
      fields[#fields + 1] = string.format('%d', m)
      fields[#fields + 1] = stored[m] .. table.concat(lines[m])
      if lo == nil or m < lo then lo = m end
      if hi == nil or m > hi then hi = m end
    end
  end
  fields[#fields + 1] = '${OLDEST_MINUTE_FIELD}'
  fields[#fields + 1] = string.format('%d', lo)
  fields[#fields + 1] = '${NEWEST_MINUTE_FIELD}'
  fields[#fields + 1] = string.format('%d', hi)
  for from = 1, #fields, 2000 do
    redis.call('HSET', minutes, unpack(fields, from, math.min(from + 1999, #fields)))
  end
  redis.call('HINCRBY', minutes, '${MINUTE_COUNT_FIELD}', added)
  return added
end

-- The open minute given up (\`trade-open-minute.ts\`): its string and the fields that describe it.
local function closeOpenMinute(minutes, open)
  redis.call('DEL', open)
  redis.call('HDEL', minutes, '${OPEN_MINUTE_FIELD}', '${OPEN_NEWEST_TIME_FIELD}', '${OPEN_NEWEST_IDS_FIELD}')
end

local function trimMinutes(minutes, before, open)
  local lo = tonumber(redis.call('HGET', minutes, '${OLDEST_MINUTE_FIELD}'))
  if lo == nil then return 0 end
  local cut = math.floor(before / MINUTE)
  if cut < lo then return 0 end
  local openMinute = tonumber(redis.call('HGET', minutes, '${OPEN_MINUTE_FIELD}'))
  local dropped = 0
  if cut > lo then
    for _, field in ipairs(redis.call('HKEYS', minutes)) do
      local m = tonumber(field)
      if m and m < cut then
        dropped = dropped + linesIn(redis.call('HGET', minutes, field))
        redis.call('HDEL', minutes, field)
      end
    end
  end
  if openMinute and openMinute < cut then
    dropped = dropped + linesIn(redis.call('GET', open) or '')
    closeOpenMinute(minutes, open)
  end
  -- The minute the cut falls in keeps its trades after it.
  local inOpen = openMinute == cut
  local field = string.format('%d', cut)
  local text = inOpen and redis.call('GET', open) or redis.call('HGET', minutes, field)
  if text then
    local last = before - cut * MINUTE
    local kept, gone = {}, 0
    for line, offset in string.gmatch(text, '(\\n%S+ (%d+) [^\\n]*)') do
      if tonumber(offset) > last then kept[#kept + 1] = line else gone = gone + 1 end
    end
    if gone > 0 then
      dropped = dropped + gone
      if #kept > 0 and inOpen then redis.call('SET', open, table.concat(kept))
      elseif #kept > 0 then redis.call('HSET', minutes, field, table.concat(kept))
      elseif inOpen then closeOpenMinute(minutes, open)
      else redis.call('HDEL', minutes, field) end
    end
  end
  if dropped == 0 then return 0 end
  local left = redis.call('HINCRBY', minutes, '${MINUTE_COUNT_FIELD}', -dropped)
  if left <= 0 then
    redis.call('DEL', minutes)
  else
    openMinute = tonumber(redis.call('HGET', minutes, '${OPEN_MINUTE_FIELD}'))
    redis.call('HSET', minutes, '${OLDEST_MINUTE_FIELD}', string.format('%d', oldestMinute(minutes, openMinute)))
  end
  return dropped
end
`;
