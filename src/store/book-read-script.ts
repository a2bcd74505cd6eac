import { PriceLevel } from '../market/book-update';
import { InstrumentKeys } from './keys';
import { LuaScript, ScriptCall } from './lua-script';

/**
 * Both sides of a book and its head in one atomic step, the sides as HGETALL's flat field-value
 * lists: read in a MULTI, ioredis turns each side into an object first, which costs more than the read.
 */
export const BOOK_READ_SCRIPT = new LuaScript(
  "return {redis.call('HGETALL', KEYS[1]), redis.call('HGETALL', KEYS[2]), redis.call('GET', KEYS[3])}",
);

export function bookReadCall(instrument: string, keys: InstrumentKeys): ScriptCall {
  return { keys: [keys.bids, keys.asks, keys.head], args: [], group: instrument };
}

/** The script's reply: bids and asks unordered, and the head's JSON (null without a head). */
export function bookReadReply(reply: unknown): {
  bids: PriceLevel[];
  asks: PriceLevel[];
  head: string | null;
} {
  const [bids, asks, head] = reply as [string[], string[], string | null];
  return { bids: levelPairs(bids), asks: levelPairs(asks), head };
}

/** `[price, amount]` levels of a flat HGETALL reply (`price, amount, price, amount, ...`). */
function levelPairs(flat: readonly string[]): PriceLevel[] {
  const levels = new Array<PriceLevel>(flat.length >> 1);
  for (let i = 0; i < levels.length; i++) levels[i] = [flat[2 * i], flat[2 * i + 1]];
  return levels;
}
