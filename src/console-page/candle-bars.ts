import type { CandleFrameBody } from './wire-types';

/**
 * A chart's bars as the gateway writes them: exact decimal text, the bar's start in Unix seconds
 * (as `/udf/history` gives it and the chart library takes it).
 */
export interface CandleBar {
  readonly time: number;
  readonly open: string;
  readonly high: string;
  readonly low: string;
  readonly close: string;
  readonly volume: string;
}

/** `/udf/history`'s body, its numbers read as text (`parseNumbersAsText`). */
export type UdfHistory =
  | {
      readonly s: 'ok';
      readonly t: readonly string[];
      readonly o: readonly string[];
      readonly h: readonly string[];
      readonly l: readonly string[];
      readonly c: readonly string[];
      readonly v: readonly string[];
    }
  | { readonly s: 'no_data'; readonly nextTime?: string }
  | { readonly s: 'error'; readonly errmsg?: string };

/** A frame of the stream's `candles.{instrument}.{resolution}` channel, as its schema says. */
export type CandleFrame = CandleFrameBody;

/** The bars of a history body, oldest first; none for `no_data`; an error for anything else. */
export function historyBars(body: UdfHistory): CandleBar[] {
  if (body.s === 'no_data') return [];
  if (body.s !== 'ok') throw new Error(`history: ${body.errmsg ?? body.s}`);
  const { t, o, h, l, c, v } = body;
  if (![o, h, l, c, v].every((column) => column.length === t.length))
    throw new Error('history: columns of different lengths');
  return t.map((time, at) => ({
    time: Number(time),
    open: o[at],
    high: h[at],
    low: l[at],
    close: c[at],
    volume: v[at],
  }));
}

/** The bar a stream frame carries. */
export function frameBar(frame: CandleFrame): CandleBar {
  const { open, high, low, close, volume } = frame;
  return { time: Math.floor(frame.time / 1_000), open, high, low, close, volume };
}

/**
 * How merging a bar changed the series: `last` replaced the newest bar (the open bar moved, or its
 * final figures), `new` appended one, `earlier` replaced or inserted an older one (a late trade's
 * correction), `none` changed nothing.
 */
export type CandleChange = 'last' | 'new' | 'earlier' | 'none';

/** `bars` (oldest first) with `bar` in its place, replacing the bar of the same time. */
export function mergeBar(
  bars: readonly CandleBar[],
  bar: CandleBar,
): { readonly bars: readonly CandleBar[]; readonly change: CandleChange } {
  const last = bars[bars.length - 1];
  if (!last || bar.time > last.time) return { bars: [...bars, bar], change: 'new' };
  let at = bars.length - 1;
  while (at >= 0 && bars[at].time > bar.time) at--;
  const same = at >= 0 && bars[at].time === bar.time;
  if (same && sameFigures(bars[at], bar)) return { bars, change: 'none' };
  const merged = [...bars.slice(0, at + 1 - (same ? 1 : 0)), bar, ...bars.slice(at + 1)];
  return { bars: merged, change: same && at === bars.length - 1 ? 'last' : 'earlier' };
}

function sameFigures(a: CandleBar, b: CandleBar): boolean {
  return (
    a.open === b.open && a.high === b.high && a.low === b.low && a.close === b.close && a.volume === b.volume
  );
}

/** Whether the bar closed at or above its open, compared exactly (decimal text, not floats). */
export function rises(bar: CandleBar): boolean {
  return compareDecimals(bar.close, bar.open) >= 0;
}

/** Fraction digits the price axis writes: the most the bars' prices have. */
export function priceDigits(bars: readonly CandleBar[]): number {
  let digits = 0;
  for (const bar of bars)
    for (const price of [bar.open, bar.high, bar.low, bar.close])
      digits = Math.max(digits, (price.split('.')[1] ?? '').length);
  return digits;
}

/** The order of two non-negative decimal texts: negative, zero or positive. */
function compareDecimals(a: string, b: string): number {
  const [aWhole, aFraction = ''] = a.split('.');
  const [bWhole, bFraction = ''] = b.split('.');
  const scale = Math.max(aFraction.length, bFraction.length);
  const difference =
    BigInt(aWhole + aFraction.padEnd(scale, '0')) - BigInt(bWhole + bFraction.padEnd(scale, '0'));
  return difference < 0n ? -1 : difference > 0n ? 1 : 0;
}
