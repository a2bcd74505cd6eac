import { Candle } from '../market/candle-stats';

/** Where an hour's closed 1-minute bars came from: the gateway's own trades, or the exchange's candles. */
export type BarSource = 'trades' | 'exchange';

/**
 * The closed 1-minute bars of one UTC hour of one market: only minutes with a trade, oldest first,
 * each bar's `start` inside `[hourStart, hourStart + 1h)`. A block built from trades replaces one
 * from the exchange's candles, never the other way round.
 */
export interface HourBlock {
  readonly hourStart: number;
  readonly source: BarSource;
  readonly bars: readonly Candle[];
}

/** What the candle backfill of one market has done, kept so that a restart goes on where it stopped. */
export interface BackfillState {
  /** Unix milliseconds: the archive holds every hour from here to where the trade-built hours start. */
  readonly coveredFrom?: number;
  /** End of the newest hour sealed from trades (Unix milliseconds). */
  readonly sealedThrough?: number;
  /** End of the span from `coveredFrom` that the backfill has filled (from the exchange, from trades, or no trade). */
  readonly coveredTo?: number;
  /**
   * The last check of trade-built hours `[mismatchFrom, mismatchTo)` against the exchange's 1-minute
   * candles that found bars differing: when (Unix milliseconds) and how many bars.
   */
  readonly mismatchFoundAt?: number;
  readonly mismatchFrom?: number;
  readonly mismatchTo?: number;
  readonly mismatchBars?: number;
}

/** The fields of `BackfillState`, each an integer, each written on its own. */
export const BACKFILL_FIELDS = [
  'coveredFrom',
  'sealedThrough',
  'coveredTo',
  'mismatchFoundAt',
  'mismatchFrom',
  'mismatchTo',
  'mismatchBars',
] as const satisfies readonly (keyof BackfillState)[];

/**
 * The archive of closed 1-minute bars (Redis, or memory without Redis), one block per market-hour,
 * kept for the chart retention and then dropped by the store itself.
 */
export interface BarArchive {
  /** Blocks with `from <= hourStart < to`, oldest first. */
  readHours(instrument: string, from: number, to: number): Promise<HourBlock[]>;
  /** Stores each block, replacing the block of the same hour unless that one is trade-built and this one is not. */
  writeHours(instrument: string, blocks: readonly HourBlock[]): Promise<void>;
  readBackfill(instrument: string): Promise<BackfillState>;
  /** Sets the fields `state` carries; the others keep their values (the backfill and the sealer each write their own). */
  writeBackfill(instrument: string, state: BackfillState): Promise<void>;
}

export const BAR_ARCHIVE = Symbol('BarArchive');
