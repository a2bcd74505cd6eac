import { Candle } from '../market/candle-stats';
import { ZERO, toDecimal } from '../market/decimal';
import { HourBlock } from '../store/bar-archive';
import { HOUR_MS, hourStartOf } from './chart-backfill-plan';

const MINUTE_MS = 60_000;

/**
 * The exchange's 1-minute candles as chart bars: one per minute with a trade. A candle without
 * volume carries no trade and is left out, as is one that is not a whole minute; the quote volume
 * is dropped, the gateway's bars compare and serve the five figures.
 */
export function exchangeMinuteBars(candles: readonly Candle[]): Candle[] {
  const bars = new Map<number, Candle>();
  for (const candle of candles) {
    if (candle.start % MINUTE_MS !== 0 || candle.end !== candle.start + MINUTE_MS) continue;
    if (toDecimal(candle.volume).eq(ZERO)) continue;
    const { start, end, open, high, low, close, volume } = candle;
    bars.set(start, { start, end, open, high, low, close, volume });
  }
  return [...bars.values()].sort((a, b) => a.start - b.start);
}

/** Exchange blocks of the hours of `[from, to)` that hold a bar, leaving out the hours in `skip`. */
export function exchangeHourBlocks(
  bars: readonly Candle[],
  from: number,
  to: number,
  skip: ReadonlySet<number>,
): HourBlock[] {
  const byHour = new Map<number, Candle[]>();
  for (const bar of bars) {
    const hour = hourStartOf(bar.start);
    if (hour < from || hour >= to || skip.has(hour)) continue;
    let list = byHour.get(hour);
    if (!list) byHour.set(hour, (list = []));
    list.push(bar);
  }
  const blocks: HourBlock[] = [];
  for (let hour = from; hour < to; hour += HOUR_MS) {
    const hourBars = byHour.get(hour);
    if (hourBars) blocks.push({ hourStart: hour, source: 'exchange', bars: hourBars });
  }
  return blocks;
}
