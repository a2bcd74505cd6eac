import { parseExactJson } from '../../src/upstream/exact-json';
import { Fraction } from './exact-fraction';
import { TruthTrade } from './truth';

const MINUTE_MS = 60_000;

/** A bar as charts publish it: its start in Unix seconds, its figures as canonical decimal text. */
export interface ChartBar {
  readonly time: number;
  readonly open: string;
  readonly high: string;
  readonly low: string;
  readonly close: string;
  readonly volume: string;
}

/**
 * The bars of `minutes` each (1 for 1-minute bars) recomputed from the sandbox's own trades, oldest
 * first, with the tests' own arithmetic: one per period with a trade, none for a period without one.
 */
export function truthBars(trades: readonly TruthTrade[], minutes = 1): ChartBar[] {
  const periodMs = minutes * MINUTE_MS;
  const byPeriod = new Map<number, TruthTrade[]>();
  for (const trade of [...trades].sort(compareTrades)) {
    const start = trade.time - (trade.time % periodMs);
    const inPeriod = byPeriod.get(start);
    if (inPeriod) inPeriod.push(trade);
    else byPeriod.set(start, [trade]);
  }
  return [...byPeriod]
    .sort(([a], [b]) => a - b)
    .map(([start, inPeriod]) => {
      const prices = inPeriod.map((trade) => Fraction.parse(trade.price));
      const extreme = (sign: number) =>
        prices.reduce((best, price) => (price.compare(best) * sign > 0 ? price : best));
      return {
        time: start / 1000,
        open: inPeriod[0].price,
        high: text(extreme(1)),
        low: text(extreme(-1)),
        close: inPeriod[inPeriod.length - 1].price,
        volume: text(inPeriod.reduce((sum, trade) => sum.plus(Fraction.parse(trade.amount)), Fraction.ZERO)),
      };
    });
}

/**
 * The bars of a TradingView or UDF `history` body (`t`, `o`, `h`, `l`, `c`, `v`), read with every
 * number's exact text and written canonically, so that they compare with `truthBars` as text.
 */
export function historyBars(body: string): ChartBar[] {
  const parsed = parseExactJson(body) as Record<string, string[] | string>;
  const column = (name: string) => (parsed[name] ?? []) as string[];
  const [t, o, h, l, c, v] = ['t', 'o', 'h', 'l', 'c', 'v'].map(column);
  return t.map((time, index) => ({
    time: Number(time),
    open: canonical(o[index]),
    high: canonical(h[index]),
    low: canonical(l[index]),
    close: canonical(c[index]),
    volume: canonical(v[index]),
  }));
}

/** Trades in the order they were made: by time, then by id (the sandbox's ids count up). */
export function compareTrades(a: TruthTrade, b: TruthTrade): number {
  return a.time - b.time || a.id.length - b.id.length || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * Bars of `seconds` each rolled up from shorter ones (oldest first), with the tests' own arithmetic:
 * the first open, the highest high, the lowest low, the last close and the sum of the volumes.
 */
export function rollUp(bars: readonly ChartBar[], seconds: number): ChartBar[] {
  const byPeriod = new Map<number, ChartBar[]>();
  for (const bar of bars) {
    const start = bar.time - (bar.time % seconds);
    const inPeriod = byPeriod.get(start);
    if (inPeriod) inPeriod.push(bar);
    else byPeriod.set(start, [bar]);
  }
  return [...byPeriod].map(([time, inPeriod]) => {
    const extreme = (pick: (bar: ChartBar) => string, sign: number) =>
      text(
        inPeriod
          .map((bar) => Fraction.parse(pick(bar)))
          .reduce((best, value) => (value.compare(best) * sign > 0 ? value : best)),
      );
    return {
      time,
      open: inPeriod[0].open,
      high: extreme((bar) => bar.high, 1),
      low: extreme((bar) => bar.low, -1),
      close: inPeriod[inPeriod.length - 1].close,
      volume: text(inPeriod.reduce((sum, bar) => sum.plus(Fraction.parse(bar.volume)), Fraction.ZERO)),
    };
  });
}

/** The canonical text of a decimal (no trailing zeros), as the tests compare figures. */
export function canonical(value: string): string {
  return text(Fraction.parse(value));
}

/** Shortest exact decimal text of a fraction whose denominator divides a power of ten. */
function text(value: Fraction): string {
  for (let decimals = 0; decimals <= 30; decimals++) {
    const fixed = value.toFixed(decimals);
    if (Fraction.parse(fixed).equals(value)) return fixed;
  }
  throw new Error('not a finite decimal');
}
