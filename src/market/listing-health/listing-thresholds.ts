import { ExactRatio } from '../exact-ratio';

/** Where a market starts to look unhealthy to an aggregator; every one is a setting. */
export interface ListingThresholds {
  /** `wide_spread` above this spread, in percent of the mid. */
  readonly maxSpreadPercent: ExactRatio;
  /** `thin_depth` when either ±2 % depth is worth less than this many US dollars. */
  readonly minDepthUsd: ExactRatio;
  /** `stale_trades` when the newest trade is older than this. */
  readonly staleTradesMs: number;
  /** `stale_book` when the book was last known current longer ago than this. */
  readonly staleBookMs: number;
  /** `volume_without_depth` when the 24-hour volume exceeds the ±2 % depth this many times. */
  readonly volumeToDepthRatio: ExactRatio;
}
