import type { CandlestickData, HistogramData, UTCTimestamp } from 'lightweight-charts';
import { CandleBar, rises } from './candle-bars';

const RISING_VOLUME = 'rgba(43,138,62,0.35)';
const FALLING_VOLUME = 'rgba(201,42,42,0.35)';

/**
 * A bar as the chart library draws it. Its prices are numbers for drawing only (the library takes
 * nothing else); what the page writes comes from the bar's text.
 */
export function candlePoint(bar: CandleBar): CandlestickData<UTCTimestamp> {
  return {
    time: bar.time as UTCTimestamp,
    open: Number(bar.open),
    high: Number(bar.high),
    low: Number(bar.low),
    close: Number(bar.close),
  };
}

/** A bar's volume as a histogram column, coloured as its candle. */
export function volumePoint(bar: CandleBar): HistogramData<UTCTimestamp> {
  return {
    time: bar.time as UTCTimestamp,
    value: Number(bar.volume),
    color: rises(bar) ? RISING_VOLUME : FALLING_VOLUME,
  };
}
