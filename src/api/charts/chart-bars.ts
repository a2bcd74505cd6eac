import { Candle } from '../../market/candle-stats';
import { ChartResolution } from '../../market/bars/chart-resolution';
import { MarketInfo } from '../../market/market-info';

/** Bars wanted: bar starts in `[from, to)`, Unix milliseconds; with `countback`, the newest that many before `to`. */
export interface BarQuery {
  readonly from: number;
  readonly to: number;
  readonly countback?: number;
}

export interface BarAnswer {
  /** Oldest first; the bar still open (if any) last. Decimals canonical text, times Unix milliseconds. */
  readonly bars: readonly Candle[];
  /**
   * Start of the newest bar older than the answer's range (older than `from`, or than the first bar
   * returned with `countback`); undefined when history holds none.
   */
  readonly previous?: number;
}

/**
 * The bars of a listed market at any resolution, read by TradingView's endpoints, the UDF datafeed,
 * the stream's candles and the console: 1-minute bars of minutes inside the 24-hour window from the
 * trades the listings read, older ones from the bar archive, the rest rolled up from those two.
 */
export abstract class ChartBars {
  abstract bars(market: MarketInfo, resolution: ChartResolution, query: BarQuery): Promise<BarAnswer>;
}
