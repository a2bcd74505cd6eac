import { Trade } from '../market/trade';
import { instrumentNotice } from './change-notice';
import { StoreKeys } from './keys';
import { encodeLease } from './lease-value';
import { LuaScript, ScriptCall } from './lua-script';
import { InstrumentWrite, PriceLevel } from './state-store';
import { encodeTradeMember } from './trade-member';

/**
 * Applies one `InstrumentWrite` atomically. Returns 1 when written, 0 when the fence did not match
 * (then nothing is written).
 *
 * KEYS: lease, bids, asks, trades, head.
 * ARGV: expected lease text ('' = unfenced), replace ('1' | '0'), head JSON, channel, notice JSON,
 * tradesBefore ('' = none), bid levels, ask levels, trades. Levels are packed into one argument as
 * `price amount price amount ...` (amount 0 removes the level; for a price given more than once the
 * last entry wins), trades as `score member score member ...`. Neither decimals, trade ids nor trade
 * members hold a space.
 *
 * One packed argument instead of one argument per item: a full book of 2 x 20,000 levels as 80,000
 * arguments took the client 25 to 35 ms to encode in one turn of the event loop, against a few for
 * one string, and Redis splits it faster than it parses a command of that many arguments.
 */
const SOURCE = `
local fence = ARGV[1]
if fence ~= '' and redis.call('GET', KEYS[1]) ~= fence then
  return 0
end
local replace = ARGV[2] == '1'
if replace then
  redis.call('DEL', KEYS[2], KEYS[3], KEYS[4])
end

-- unpack() is bounded by the Lua stack, so long lists go to Redis in chunks.
local CHUNK = 2000
local function send(command, key, list)
  for from = 1, #list, CHUNK do
    redis.call(command, key, unpack(list, from, math.min(from + CHUNK - 1, #list)))
  end
end

local function applyLevels(key, packed)
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
  send('HSET', key, set)
  send('HDEL', key, removed)
end

applyLevels(KEYS[2], ARGV[7])
applyLevels(KEYS[3], ARGV[8])
local trades = {}
for score, member in string.gmatch(ARGV[9], '(%S+) (%S+)') do
  trades[#trades + 1] = score
  trades[#trades + 1] = member
end
send('ZADD', KEYS[4], trades)
if ARGV[6] ~= '' then
  redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', ARGV[6])
end
redis.call('SET', KEYS[5], ARGV[3])
redis.call('PUBLISH', ARGV[4], ARGV[5])
return 1
`;

export const INSTRUMENT_WRITE_SCRIPT = new LuaScript(SOURCE);

/** The script's keys and arguments for one write. */
export function instrumentWriteCall(keys: StoreKeys, write: InstrumentWrite): ScriptCall {
  const instrumentKeys = keys.instrument(write.instrument);
  return {
    keys: [
      instrumentKeys.lease,
      instrumentKeys.bids,
      instrumentKeys.asks,
      instrumentKeys.trades,
      instrumentKeys.head,
    ],
    args: [
      write.fence ? encodeLease(write.fence) : '',
      write.replace ? '1' : '0',
      JSON.stringify(write.head),
      keys.changes,
      JSON.stringify(instrumentNotice(write.head)),
      write.tradesBefore === undefined ? '' : String(write.tradesBefore),
      packLevels(write.levels?.bids ?? []),
      packLevels(write.levels?.asks ?? []),
      packTrades(write.tradesAdded ?? []),
    ],
    group: write.instrument,
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
    const item = `${trade.time} ${encodeTradeMember(trade)}`;
    packed += packed === '' ? item : ` ${item}`;
  }
  return packed;
}
