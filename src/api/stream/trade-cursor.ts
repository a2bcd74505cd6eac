import { Trade } from '../../market/trade';
import { TradeTail } from '../../store/state-store';

/**
 * Where a trade channel stands: every stored trade up to `time` is sent, and at `time` itself those in
 * `ids` (all of them when `ids` is undefined, as at the start, where nothing names them).
 */
export interface TradeCursor {
  readonly time: number;
  readonly ids?: ReadonlySet<string>;
  /** The last trade sent, which a tail read from `time` holds as long as the store only grew. */
  readonly newestId?: string;
}

export interface TailReading {
  /** The trades of the tail not sent yet, oldest first. */
  readonly fresh: Trade[];
  readonly cursor: TradeCursor;
  /** The last trade sent is no longer stored: the store changed otherwise than by adding trades. */
  readonly broken: boolean;
}

export function startCursor(time: number): TradeCursor {
  return { time };
}

/** Reads a tail of the stored trades from `cursor.time` on: what is new, and where the channel then stands. */
export function readTail(cursor: TradeCursor, tail: TradeTail): TailReading {
  const broken = cursor.newestId !== undefined && !tail.trades.some((trade) => trade.id === cursor.newestId);
  return { ...advance(cursor, tail.trades), broken };
}

/** Of `trades` (oldest first), those not sent yet, and where the channel stands once they are. */
export function advance(
  cursor: TradeCursor,
  trades: readonly Trade[],
): { readonly fresh: Trade[]; readonly cursor: TradeCursor } {
  const fresh = trades.filter(
    (trade) =>
      trade.time > cursor.time ||
      (trade.time === cursor.time && cursor.ids !== undefined && !cursor.ids.has(trade.id)),
  );
  const newest = fresh.at(-1);
  if (newest === undefined) return { fresh, cursor };
  const atNewestTime = fresh.filter((trade) => trade.time === newest.time).map((trade) => trade.id);
  const ids = new Set(newest.time === cursor.time ? [...(cursor.ids ?? []), ...atNewestTime] : atNewestTime);
  return { fresh, cursor: { time: newest.time, ids, newestId: newest.id } };
}
