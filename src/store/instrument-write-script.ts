import { Trade } from '../market/trade';
import { StoreKeys } from './keys';
import { encodeLease } from './lease-value';
import { LuaScript, ScriptCall } from './lua-script';
import { InstrumentWrite, PriceLevel } from './state-store';
import { encodeTradeFields } from './trade-fields-codec';
import { TRADE_HISTORY_LUA } from './trade-history';
import { TRADE_OPEN_MINUTE_LUA } from './trade-open-minute';

/**
 * Applies a run of `InstrumentWrite`s in order, each atomically; returns one integer per write, 1
 * when written, 0 when its fence did not match (then nothing of that write is applied).
 *
 * KEYS, six per write: lease, bids, asks, trade history, open minute, head. ARGV: the change
 * channel, then seven per write: expected lease text ('' = unfenced), replace ('1' | '0'), head
 * JSON, tradesBefore ('' = none), bid levels, ask levels, trades. Each write publishes one message
 * on the change channel: what it changed, with the versions the head held before
 * (`decodeInstrumentChange`).
 * Levels are packed into one argument as `price amount price amount ...` (amount 0 removes the
 * level; for a price given more than once the last entry wins), trades as
 * `score fields score fields ...` (`encodeTradeFields`). Neither decimals nor trade ids hold a space.
 *
 * One packed argument instead of one argument per item: a deep book as one argument per level takes
 * the client tens of milliseconds to encode in one turn of the event loop, against a few for one
 * string, and Redis splits it faster than it parses a command of that many arguments.
 */
const SOURCE = `
local channel = ARGV[1]
${TRADE_HISTORY_LUA}
${TRADE_OPEN_MINUTE_LUA}

-- A hash of more fields than hash-max-listpack-entries (512 by default) ends as a hash table, but
-- Redis 7.0 (later releases convert up front) fills it as a listpack first, searching all of it for
-- every field it adds; a value longer than hash-max-listpack-value (64 by default) converts at once.
local LISTPACK_ENTRIES = 512
local HASHTABLE_NOW = string.rep('-', 1024)

-- unpack() is bounded by the Lua stack, so long lists go to Redis in chunks.
local CHUNK = 2000
local function send(command, key, list)
  for from = 1, #list, CHUNK do
    redis.call(command, key, unpack(list, from, math.min(from + CHUNK - 1, #list)))
  end
end

local function applyLevels(key, packed, replace)
  local latest = {}
  for price, amount in string.gmatch(packed, '(%S+) (%S+)') do
    latest[price] = amount
  end
  local set, removed = {}, {}
  for price, amount in pairs(latest) do
    if amount ~= '0' then
      set[#set + 1] = price
      set[#set + 1] = amount
    elseif not replace then
      removed[#removed + 1] = price
    end
  end
  local early = #set > 2 * LISTPACK_ENTRIES
  if early then redis.call('HSET', key, '', HASHTABLE_NOW) end
  send('HSET', key, set)
  if early then redis.call('HDEL', key, '') end
  send('HDEL', key, removed)
end

local function apply(lease, bids, asks, history, open, head, fence, replace, headJson, before, bidLevels, askLevels, tradeList)
  if fence ~= '' and redis.call('GET', lease) ~= fence then
    return 0
  end
  if replace then
    -- Freed off Redis' main thread: a deep book's levels are many allocations.
    redis.call('UNLINK', bids, asks, history, open)
  end
  applyLevels(bids, bidLevels, replace)
  applyLevels(asks, askLevels, replace)
  appendTrades(history, open, tradeList)
  if before ~= '' then trimMinutes(history, tonumber(before), open) end
  local old = redis.call('GET', head)
  local fromVersion = old and string.match(old, '"bookVersion":(%d+)') or ''
  local fromTrades = old and string.match(old, '"tradesRevision":(%d+)') or ''
  redis.call('SET', head, headJson)
  redis.call('PUBLISH', channel, table.concat({ fromVersion, replace and '1' or '0', headJson,
    bidLevels, askLevels, fromTrades, tradeList }, '\\n'))
  return 1
end

local results = {}
for write = 0, #KEYS / 6 - 1 do
  local k, a = write * 6, 1 + write * 7
  results[write + 1] = apply(KEYS[k + 1], KEYS[k + 2], KEYS[k + 3], KEYS[k + 4], KEYS[k + 5], KEYS[k + 6],
    ARGV[a + 1], ARGV[a + 2] == '1', ARGV[a + 3], ARGV[a + 4], ARGV[a + 5], ARGV[a + 6], ARGV[a + 7])
end
return results
`;

export const INSTRUMENT_WRITE_SCRIPT = new LuaScript(SOURCE);

/**
 * How many writes one script call carries at most, and the size of their packed arguments after
 * which a call takes no more. One call per write costs the client a command, a promise and a reply
 * per instrument (BENCHMARKS.md, Store writes); one call per batch would hold Redis, and every
 * reader behind it, for the whole of a large batch (a first write of deep books and days of trades).
 */
export const WRITES_PER_CALL = 64;
export const CALL_ARGUMENT_CHARS = 256 * 1024;

export interface WriteCallOptions {
  /** On a Cluster every write goes alone: a call's keys must share one slot. */
  readonly oneWritePerCall?: boolean;
}

/** The script calls for a batch of writes, in order; each call's reply holds one result per write it carries. */
export function instrumentWriteCalls(
  keys: StoreKeys,
  batch: readonly InstrumentWrite[],
  options: WriteCallOptions = {},
): { call: ScriptCall; writes: number }[] {
  const limit = options.oneWritePerCall ? 1 : WRITES_PER_CALL;
  const calls: { call: ScriptCall; writes: number }[] = [];
  const callHead = [keys.changes];
  let callKeys: string[] = [];
  let callArgs: string[] = [...callHead];
  let chars = 0;
  let writes = 0;
  let group = '';
  const close = (): void => {
    if (writes === 0) return;
    calls.push({ call: { keys: callKeys, args: callArgs, group }, writes });
    callKeys = [];
    callArgs = [...callHead];
    chars = 0;
    writes = 0;
  };
  for (const write of batch) {
    const { keys: writeKeys, args } = writeArguments(keys, write);
    if (writes === 0) group = write.instrument;
    callKeys.push(...writeKeys);
    callArgs.push(...args);
    for (const arg of args) chars += arg.length;
    writes++;
    if (writes === limit || chars >= CALL_ARGUMENT_CHARS) close();
  }
  close();
  return calls;
}

/** The six keys and seven arguments of one write (see SOURCE). */
export function writeArguments(
  keys: StoreKeys,
  write: InstrumentWrite,
): { keys: readonly string[]; args: readonly string[] } {
  const instrumentKeys = keys.instrument(write.instrument);
  return {
    keys: [
      instrumentKeys.lease,
      instrumentKeys.bids,
      instrumentKeys.asks,
      instrumentKeys.tradeHistory,
      instrumentKeys.tradeOpenMinute,
      instrumentKeys.head,
    ],
    args: [
      write.fence ? encodeLease(write.fence) : '',
      write.replace ? '1' : '0',
      JSON.stringify(write.head),
      write.tradesBefore === undefined ? '' : String(write.tradesBefore),
      packLevels(write.levels?.bids ?? []),
      packLevels(write.levels?.asks ?? []),
      packTrades(write.tradesAdded ?? []),
    ],
  };
}

function packLevels(levels: readonly PriceLevel[]): string {
  let packed = '';
  for (const [price, amount] of levels)
    packed += packed === '' ? `${price} ${amount}` : ` ${price} ${amount}`;
  return packed;
}

function packTrades(trades: readonly Trade[]): string {
  let packed = '';
  for (const trade of trades) {
    const item = `${trade.time} ${encodeTradeFields(trade)}`;
    packed += packed === '' ? item : ` ${item}`;
  }
  return packed;
}
