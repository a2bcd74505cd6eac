import BigConstructor from 'big.js';
import { canonicalDecimal, compareCanonical, DecimalValue, toDecimal, ZERO } from './decimal';
import { EMPTY_STATS, MarketStats } from './market-stats';
import { DAY_MS } from './trade-window';

/** One candle; decimals are canonical text, times Unix milliseconds. */
export interface Candle {
  readonly start: number;
  readonly end: number;
  readonly open: string;
  readonly high: string;
  readonly low: string;
  readonly close: string;
  /** Base volume. */
  readonly volume: string;
  /** Quote volume, when the source reports it. */
  readonly quoteVolume?: string;
}

const HALF = toDecimal('0.5');
const ESTIMATE_SCALE = 18;

/**
 * Estimated 24-hour statistics (source `candles`) for markets without a trade feed, from the candles that start
 * inside `now - 24h < start <= now`.
 *
 * - open: the first candle's open; high/low: the extremes of the candles' highs and lows (and of `lastPrice`).
 * - last: `lastPrice` (e.g. level 1's last trade) when given, else the last candle's close.
 * - baseVolume: the sum of the volumes, exact.
 * - quoteVolume: the exact sum of the candles' quote volumes when every candle has one; otherwise an estimate,
 *   the sum of volume x (open + close) / 2, rounded half up to 18 decimals.
 * - tradeCount: 0, candles do not count trades.
 *
 * Candles with zero volume carry no trade and are left out, so that `open` is a traded price. Two candles with
 * the same start are one candle updated: the later in the list wins. Without a traded candle every value is "0",
 * `lastPrice` included, since it may be older than the window.
 */
export function statsFromCandles(candles: readonly Candle[], now: number, lastPrice?: string): MarketStats {
  const byStart = new Map<number, Candle>();
  for (const candle of candles) {
    if (candle.start > now - DAY_MS && candle.start <= now) byStart.set(candle.start, candle);
  }
  const traded = [...byStart.values()]
    .filter((candle) => !toDecimal(candle.volume).eq(ZERO))
    .sort((a, b) => a.start - b.start);
  if (traded.length === 0) return { ...EMPTY_STATS, source: 'candles' };

  const last = lastPrice ?? traded[traded.length - 1].close;
  let high = last;
  let low = last;
  let baseVolume: DecimalValue = ZERO;
  let reportedQuote: DecimalValue = ZERO;
  let estimatedQuote: DecimalValue = ZERO;
  let everyQuoteReported = true;
  for (const candle of traded) {
    if (compareCanonical(candle.high, high) > 0) high = candle.high;
    if (compareCanonical(candle.low, low) < 0) low = candle.low;
    const volume = toDecimal(candle.volume);
    baseVolume = baseVolume.plus(volume);
    if (candle.quoteVolume === undefined) everyQuoteReported = false;
    else reportedQuote = reportedQuote.plus(toDecimal(candle.quoteVolume));
    estimatedQuote = estimatedQuote.plus(
      volume.times(toDecimal(candle.open).plus(toDecimal(candle.close))).times(HALF),
    );
  }
  const quoteVolume = everyQuoteReported
    ? reportedQuote
    : estimatedQuote.round(ESTIMATE_SCALE, BigConstructor.roundHalfUp);

  return {
    last,
    open: traded[0].open,
    high,
    low,
    baseVolume: canonicalDecimal(baseVolume.toFixed()),
    quoteVolume: canonicalDecimal(quoteVolume.toFixed()),
    tradeCount: 0,
    source: 'candles',
  };
}
