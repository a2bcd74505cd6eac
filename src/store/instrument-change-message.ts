import { Trade } from '../market/trade';
import { InstrumentChange, InstrumentHead, PriceLevel } from './state-store';
import { decodeTradeFields } from './trade-fields-codec';

/**
 * The pub/sub message of what a write changed, as the write script publishes it once per write: seven
 * lines, the book version before the write (empty when none), `1` for a replace or `0`, the head JSON
 * (which names the instrument), the bid and the ask levels packed as `price amount price amount ...`,
 * the trades revision before the write (empty when none), and the trades added packed as
 * `time fields time fields ...` (the write's own arguments).
 */
export function decodeInstrumentChange(text: string): InstrumentChange | undefined {
  const lines = text.split('\n');
  if (lines.length !== 7) return undefined;
  const [from, replace, headJson, bids, asks, fromTrades, trades] = lines;
  const fromVersion = optionalInteger(from);
  const fromTradesRevision = optionalInteger(fromTrades);
  if (fromVersion === null || fromTradesRevision === null) return undefined;
  if (replace !== '0' && replace !== '1') return undefined;
  let head: InstrumentHead;
  try {
    head = JSON.parse(headJson) as InstrumentHead;
  } catch {
    return undefined;
  }
  if (typeof head?.instrument !== 'string' || typeof head.bookVersion !== 'number') return undefined;
  const { instrument } = head;
  let added: Trade[];
  try {
    added = unpackTrades(trades, instrument);
  } catch {
    return undefined;
  }
  return {
    instrument,
    ...(fromVersion === undefined ? {} : { fromVersion }),
    replace: replace === '1',
    head,
    bids: unpackLevels(bids),
    asks: unpackLevels(asks),
    ...(fromTradesRevision === undefined ? {} : { fromTradesRevision }),
    trades: added,
  };
}

/** An integer line: undefined when empty, null when malformed. */
function optionalInteger(text: string): number | undefined | null {
  if (text === '') return undefined;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : null;
}

function unpackTrades(packed: string, instrument: string): Trade[] {
  if (packed === '') return [];
  const words = packed.split(' ');
  const trades: Trade[] = [];
  for (let i = 0; i + 1 < words.length; i += 2)
    trades.push(decodeTradeFields(words[i + 1], instrument, Number(words[i])));
  return trades;
}

/** Packed levels, each price once with the last amount given for it. */
function unpackLevels(packed: string): PriceLevel[] {
  if (packed === '') return [];
  const words = packed.split(' ');
  const levels: PriceLevel[] = [];
  for (let i = 0; i + 1 < words.length; i += 2) levels.push([words[i], words[i + 1]]);
  return distinctLevels(levels);
}

/** Levels with each price once, the last amount given for it winning. */
export function distinctLevels(levels: readonly PriceLevel[]): PriceLevel[] {
  const latest = new Map<string, string>();
  for (const [price, amount] of levels) latest.set(price, amount);
  return Array.from(latest, ([price, amount]): PriceLevel => [price, amount]);
}
