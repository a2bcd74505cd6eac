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
 * tradesBefore ('' = none), then five lists, each its item count followed by the items:
 * bid levels to set (price, amount), bid prices to remove, ask levels to set, ask prices to
 * remove, trades to add (score, member).
 */
const SOURCE = `
local fence = ARGV[1]
if fence ~= '' and redis.call('GET', KEYS[1]) ~= fence then
  return 0
end
if ARGV[2] == '1' then
  redis.call('DEL', KEYS[2], KEYS[3], KEYS[4])
end

-- unpack() is bounded by the Lua stack, so long lists go to Redis in chunks.
local CHUNK = 1000
local cursor = 7
local function sendList(command, key, width)
  local count = tonumber(ARGV[cursor])
  local last = cursor + count * width
  for from = cursor + 1, last, CHUNK * width do
    redis.call(command, key, unpack(ARGV, from, math.min(from + CHUNK * width - 1, last)))
  end
  cursor = last + 1
end

sendList('HSET', KEYS[2], 2)
sendList('HDEL', KEYS[2], 1)
sendList('HSET', KEYS[3], 2)
sendList('HDEL', KEYS[3], 1)
sendList('ZADD', KEYS[4], 2)
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
  const args = [
    write.fence ? encodeLease(write.fence) : '',
    write.replace ? '1' : '0',
    JSON.stringify(write.head),
    keys.changes,
    JSON.stringify(instrumentNotice(write.head)),
    write.tradesBefore === undefined ? '' : String(write.tradesBefore),
  ];
  pushLevels(args, write.levels?.bids ?? [], write.replace);
  pushLevels(args, write.levels?.asks ?? [], write.replace);
  pushTrades(args, write.tradesAdded ?? []);
  return {
    keys: [
      instrumentKeys.lease,
      instrumentKeys.bids,
      instrumentKeys.asks,
      instrumentKeys.trades,
      instrumentKeys.head,
    ],
    args,
    group: write.instrument,
  };
}

/**
 * Appends the levels to set and the prices to remove. Later entries for the same price win, as if
 * applied in order; a replace has nothing to remove, since it starts from an empty side.
 */
function pushLevels(args: string[], levels: readonly PriceLevel[], replace: boolean): void {
  const latest = new Map<string, string>();
  for (const [price, amount] of levels) latest.set(price, amount);
  const set: string[] = [];
  const removed: string[] = [];
  for (const [price, amount] of latest) {
    if (amount !== '0') set.push(price, amount);
    else if (!replace) removed.push(price);
  }
  // Loops rather than push(...list): a full book can exceed the engine's limit on call arguments.
  args.push(String(set.length / 2));
  for (const item of set) args.push(item);
  args.push(String(removed.length));
  for (const price of removed) args.push(price);
}

function pushTrades(args: string[], trades: readonly Trade[]): void {
  const members = new Map<string, number>();
  for (const trade of trades) members.set(encodeTradeMember(trade), trade.time);
  args.push(String(members.size));
  for (const [member, time] of members) args.push(String(time), member);
}
