import { BookChange, InstrumentHead, PriceLevel } from './state-store';

/**
 * The pub/sub message of a book change, as the write script publishes it: five lines, the version
 * before the write (empty when none), `1` for a replace or `0`, the head JSON, then the bid and the
 * ask levels packed as `price amount price amount ...` (the write's own arguments).
 */
export function decodeBookChange(instrument: string, text: string): BookChange | undefined {
  const lines = text.split('\n');
  if (lines.length !== 5) return undefined;
  const [from, replace, headJson, bids, asks] = lines;
  const fromVersion = from === '' ? undefined : Number(from);
  if (fromVersion !== undefined && !Number.isSafeInteger(fromVersion)) return undefined;
  if (replace !== '0' && replace !== '1') return undefined;
  let head: InstrumentHead;
  try {
    head = JSON.parse(headJson) as InstrumentHead;
  } catch {
    return undefined;
  }
  if (head?.instrument !== instrument || typeof head.bookVersion !== 'number') return undefined;
  return {
    instrument,
    ...(fromVersion === undefined ? {} : { fromVersion }),
    replace: replace === '1',
    head,
    bids: unpackLevels(bids),
    asks: unpackLevels(asks),
  };
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
