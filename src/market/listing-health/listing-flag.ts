/** A condition of a market that an aggregator would hold against it. */
export type ListingFlagCode =
  | 'crossed_book'
  | 'empty_side'
  | 'wide_spread'
  | 'thin_depth'
  | 'stale_trades'
  | 'stale_book'
  | 'frozen'
  | 'no_usd_path'
  | 'volume_without_depth'
  | 'chart_bars_mismatch';

export const LISTING_FLAG_CODES: readonly ListingFlagCode[] = [
  'crossed_book',
  'empty_side',
  'wide_spread',
  'thin_depth',
  'stale_trades',
  'stale_book',
  'frozen',
  'no_usd_path',
  'volume_without_depth',
  'chart_bars_mismatch',
];

export interface ListingFlag {
  readonly code: ListingFlagCode;
  /** What is wrong, with the figures, in a sentence an operator can act on. */
  readonly message: string;
}
