/** A bar width the candle panel offers, by its TradingView name, with its length for the time range. */
export interface CandleResolution {
  readonly name: string;
  readonly label: string;
  readonly seconds: number;
}

export const CANDLE_RESOLUTIONS: readonly CandleResolution[] = [
  { name: '1', label: '1m', seconds: 60 },
  { name: '5', label: '5m', seconds: 300 },
  { name: '15', label: '15m', seconds: 900 },
  { name: '60', label: '1h', seconds: 3_600 },
  { name: '240', label: '4h', seconds: 14_400 },
  { name: '1D', label: '1D', seconds: 86_400 },
  { name: '1W', label: '1W', seconds: 604_800 },
];

/** Bars the panel loads: a day of 1-minute bars, as many of the wider ones. */
export const HISTORY_BARS = 1_440;

/**
 * The `/udf/history` range (Unix seconds, `to` exclusive) of the last `count` bars up to `nowMs`,
 * the bar being built included.
 */
export function historyRange(
  resolution: CandleResolution,
  nowMs: number,
  count: number = HISTORY_BARS,
): { readonly from: number; readonly to: number } {
  const to = Math.floor(nowMs / 1_000) + 1;
  return { from: to - count * resolution.seconds, to };
}
