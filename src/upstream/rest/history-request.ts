import { CANDLE_INTERVALS, CandleInterval, MAX_CANDLES } from '../../market/candle-interval';
import { formatQueryDate } from '../../market/exchange-date';

export interface HistoryRequest {
  /** Unix milliseconds; sent rounded down to the second. */
  readonly start: number;
  /** Unix milliseconds, after `start`; sent rounded up to the second. */
  readonly end: number;
  readonly interval: CandleInterval;
  /** 1 to 1000, default 1000. When the range holds more candles, the newest are kept. */
  readonly count?: number;
}

/** The query string values of `/history` for `request`; a RangeError names what is wrong with it. */
export function historyQuery(request: HistoryRequest): Record<string, string> {
  const { start, end, interval, count = MAX_CANDLES } = request;
  if (!Number.isFinite(start) || !Number.isFinite(end) || end <= start) {
    throw new RangeError(`history needs finite times with start < end, got ${start} and ${end}`);
  }
  if (!(CANDLE_INTERVALS as readonly string[]).includes(interval)) {
    throw new RangeError(`history interval must be one of ${CANDLE_INTERVALS.join(', ')}, got ${interval}`);
  }
  if (!Number.isInteger(count) || count < 1 || count > MAX_CANDLES) {
    throw new RangeError(`history count must be an integer from 1 to ${MAX_CANDLES}, got ${count}`);
  }
  return {
    startDate: formatQueryDate(Math.floor(start / 1000) * 1000),
    endDate: formatQueryDate(Math.ceil(end / 1000) * 1000),
    type: interval,
    count: String(count),
  };
}
