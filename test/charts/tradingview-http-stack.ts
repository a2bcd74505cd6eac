import { ChartBars, BarAnswer, BarQuery } from '../../src/api/charts/chart-bars';
import { MarketViews } from '../../src/api/views/market-views';
import { ChartResolution } from '../../src/market/bars/chart-resolution';
import { Candle } from '../../src/market/candle-stats';
import { MarketInfo } from '../../src/market/market-info';
import { waitFor } from '../support/fault-run';
import { startTestStack, TestStack } from '../support/start-test-stack';

export const MINUTE = 60_000;

/** One asked-for read: the market, the resolution's name and the query in milliseconds. */
export interface BarRead {
  readonly instrument: string;
  readonly resolution: string;
  readonly query: BarQuery;
}

/**
 * Bars known in advance, per instrument, answered as the bar reader's contract says: starts in
 * `[from, to)`, or the newest `countback` before `to`; `previous` the newest start before them.
 */
export class KnownBars {
  readonly reads: BarRead[] = [];
  private readonly byInstrument = new Map<string, Candle[]>();

  set(instrument: string, bars: Candle[]): void {
    this.byInstrument.set(
      instrument,
      [...bars].sort((a, b) => a.start - b.start),
    );
  }

  bars(market: MarketInfo, resolution: ChartResolution, query: BarQuery): Promise<BarAnswer> {
    this.reads.push({ instrument: market.instrument, resolution: resolution.name, query });
    const all = this.byInstrument.get(market.instrument) ?? [];
    const before = all.filter((bar) => bar.start < query.to);
    const bars =
      query.countback === undefined
        ? before.filter((bar) => bar.start >= query.from)
        : before.filter((bar) => bar.start >= query.from).slice(-query.countback);
    const first = bars.length > 0 ? bars[0].start : query.countback === undefined ? query.from : query.to;
    const older = all.filter((bar) => bar.start < first);
    return Promise.resolve({ bars, previous: older.length > 0 ? older[older.length - 1].start : undefined });
  }

  lastRead(): BarRead {
    return this.reads[this.reads.length - 1];
  }
}

/** A 1-minute bar starting at `start` (Unix ms). */
export function bar(
  start: number,
  open: string,
  high: string,
  low: string,
  close: string,
  volume: string,
): Candle {
  return { start, end: start + MINUTE, open, high, low, close, volume };
}

export interface ChartStack {
  readonly stack: TestStack;
  readonly url: string;
  readonly known: KnownBars;
  readonly markets: readonly MarketInfo[];
  close(): Promise<void>;
}

/**
 * The whole service over real HTTP, its bar reader answering from `KnownBars`: the one reader the
 * endpoints are given is told what to answer, so every figure the suites expect is known.
 */
export async function startChartStack(app: Record<string, string> = {}): Promise<ChartStack> {
  const stack = await startTestStack({ redis: false, credentials: false, app });
  const known = new KnownBars();
  const reader = stack.app.app.get(ChartBars);
  (reader as { bars: ChartBars['bars'] }).bars = (market, resolution, query) =>
    known.bars(market, resolution, query);
  const views = stack.app.app.get(MarketViews);
  await waitFor(() => views.ready && views.markets().length > 0, 'the catalogue', 20_000);
  return { stack, url: stack.app.url, known, markets: views.markets(), close: () => stack.close() };
}
