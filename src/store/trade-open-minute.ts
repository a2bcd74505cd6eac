import {
  MINUTE_COUNT_FIELD,
  NEWEST_MINUTE_FIELD,
  OLDEST_MINUTE_FIELD,
  OPEN_MINUTE_FIELD,
  OPEN_NEWEST_IDS_FIELD,
  OPEN_NEWEST_TIME_FIELD,
} from './trade-history';

/**
 * The open minute of the stored trades: the trade minutes (`trade-history.ts`) are in the hash
 * `InstrumentKeys.tradeHistory`, except the newest minute written to, the open one, whose lines
 * are a string of their own (`InstrumentKeys.tradeOpenMinute`) that writes `APPEND` to. So a write
 * costs Redis the trades it adds, where rewriting a minute's field costs the whole minute.
 *
 * Besides `n`, `lo` and `hi` (which count and span the open minute too), the hash holds `om` the
 * open minute, `ot` the newest time in it and `oi` the ids of that time, space-separated: a trade
 * after `ot` cannot repeat a stored one, a trade at `ot` is looked for in `oi`, and only an older
 * one (a write repeated after a lost reply) makes the script read the open minute. The open minute
 * is never also a field of the hash. A write whose newest trade is in a later minute first closes
 * the open minute into the hash (the one read of its text a minute) and opens that minute.
 */
export const TRADE_OPEN_MINUTE_LUA = `
-- Ids of one time are kept as a set (id -> true): a lookup does not grow with a burst of them.
local function idSet(list)
  local set = {}
  for id in string.gmatch(list, '%S+') do set[id] = true end
  return set
end

local function idList(set)
  local ids = {}
  for id in pairs(set) do ids[#ids + 1] = id end
  return table.concat(ids, ' ')
end

-- The newest time of a minute's text and the set of ids of that time.
local function newestOf(text, minute)
  local newest, ids = nil, {}
  for id, offset in string.gmatch(text, '\\n(%S+) (%d+) ') do
    local time = minute * MINUTE + tonumber(offset)
    if newest == nil or time > newest then
      newest, ids = time, { [id] = true }
    elseif time == newest then
      ids[id] = true
    end
  end
  return newest, ids
end

-- Moves the open minute's string into the hash and what the hash holds of minute into the string.
-- Returns the newest time, the set of its ids and the text of the minute opened.
local function openMinute(minutes, open, minute)
  local closing = redis.call('HGET', minutes, '${OPEN_MINUTE_FIELD}')
  if closing then
    local text = redis.call('GET', open)
    if text then redis.call('HSET', minutes, closing, text) end
  end
  local field = string.format('%d', minute)
  local held = redis.call('HGET', minutes, field)
  if not held then
    redis.call('DEL', open)
    return nil, {}, ''
  end
  redis.call('HDEL', minutes, field)
  redis.call('SET', open, held)
  local newest, ids = newestOf(held, minute)
  return newest, ids, held
end

local function appendTrades(minutes, open, list)
  local parsed = parseTrades(list)
  if #parsed == 0 then return 0 end
  local newestMinute = parsed[1][1]
  for i = 2, #parsed do
    if parsed[i][1] > newestMinute then newestMinute = parsed[i][1] end
  end
  local state = redis.call('HMGET', minutes, '${OPEN_MINUTE_FIELD}', '${OPEN_NEWEST_TIME_FIELD}',
    '${OPEN_NEWEST_IDS_FIELD}', '${OLDEST_MINUTE_FIELD}', '${NEWEST_MINUTE_FIELD}')
  local om, newest, newestIds = tonumber(state[1]), tonumber(state[2]), idSet(state[3] or '')
  local lo, hi = tonumber(state[4]), tonumber(state[5])
  -- The open minute's text, read only for a trade older than its newest.
  local text = nil
  local opened = om == nil or newestMinute > om
  if opened then
    newest, newestIds, text = openMinute(minutes, open, newestMinute)
    om = newestMinute
  end
  local lines, older, seen = {}, {}, {}
  for _, trade in ipairs(parsed) do
    local m, id, time = trade[1], trade[2], trade[4]
    if m < om then
      older[#older + 1] = trade
    elseif not seen[id] then
      local new
      if newest == nil or time > newest then
        new, newest, newestIds = true, time, { [id] = true }
      elseif time == newest then
        new = not newestIds[id]
        if new then newestIds[id] = true end
      else
        text = text or redis.call('GET', open) or ''
        new = not string.find(text, '\\n' .. id .. ' ', 1, true)
      end
      if new then
        seen[id] = true
        lines[#lines + 1] = trade[3]
      end
    end
  end
  local fields = { '${OPEN_MINUTE_FIELD}', string.format('%d', om) }
  if newest then
    fields[#fields + 1] = '${OPEN_NEWEST_TIME_FIELD}'
    fields[#fields + 1] = string.format('%d', newest)
    fields[#fields + 1] = '${OPEN_NEWEST_IDS_FIELD}'
    fields[#fields + 1] = idList(newestIds)
  end
  if #lines > 0 then
    redis.call('APPEND', open, table.concat(lines))
    fields[#fields + 1] = '${OLDEST_MINUTE_FIELD}'
    fields[#fields + 1] = string.format('%d', (lo == nil or om < lo) and om or lo)
    fields[#fields + 1] = '${NEWEST_MINUTE_FIELD}'
    fields[#fields + 1] = string.format('%d', (hi == nil or om > hi) and om or hi)
    redis.call('HINCRBY', minutes, '${MINUTE_COUNT_FIELD}', #lines)
  end
  if opened or #lines > 0 then redis.call('HSET', minutes, unpack(fields)) end
  return #lines + addToMinutes(minutes, older)
end
`;
