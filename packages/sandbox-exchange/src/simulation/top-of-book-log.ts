import { Side } from '../engine/side';
import { formatUnits } from '../engine/units';
import { MarketSimulator } from './market-simulator';

/** A price level as text: `[price, amount]` in plain decimals without trailing zeros. */
export type TopLevel = readonly [price: string, amount: string];

/** The best bid and ask of a market after one book change, and when the market emitted it. */
export interface TopOfBookChange {
  readonly version: number;
  /** The change's event time, Unix milliseconds: the time the market stamped on the delta. */
  readonly time: number;
  readonly bid: TopLevel | null;
  readonly ask: TopLevel | null;
}

/** Changes kept per market; a recording that runs longer keeps the first ones. */
export const MAX_CHANGES_PER_MARKET = 500_000;

interface Recording {
  readonly changes: TopOfBookChange[];
  readonly stop: () => void;
  last?: string;
}

/**
 * Records, for the markets it is asked to watch, every book change that moved the best bid or ask
 * (price or amount), with the change's version and event time. A benchmark reads it afterwards to
 * know when each state of the top of the book was emitted, and so how long the gateway took to show it.
 */
export class TopOfBookLog {
  private readonly recordings = new Map<string, Recording>();

  /** Starts a new recording of `markets`, ending any earlier one. */
  record(markets: readonly MarketSimulator[]): void {
    this.clear();
    for (const market of markets) {
      const recording: Recording = {
        changes: [],
        stop: market.deltas.subscribe((delta) => this.onChange(market, recording, delta.version, delta.time)),
        last: topKey(market),
      };
      this.recordings.set(market.instrument, recording);
    }
  }

  /** The changes recorded for a market, oldest first; undefined when it is not being recorded. */
  changes(instrument: string): readonly TopOfBookChange[] | undefined {
    return this.recordings.get(instrument)?.changes;
  }

  clear(): void {
    for (const recording of this.recordings.values()) recording.stop();
    this.recordings.clear();
  }

  private onChange(market: MarketSimulator, recording: Recording, version: number, time: number): void {
    if (recording.changes.length >= MAX_CHANGES_PER_MARKET) return;
    const bid = topLevel(market, Side.Buy);
    const ask = topLevel(market, Side.Sell);
    const key = keyOf(bid, ask);
    if (key === recording.last) return;
    recording.last = key;
    recording.changes.push({ version, time, bid, ask });
  }
}

function topKey(market: MarketSimulator): string {
  return keyOf(topLevel(market, Side.Buy), topLevel(market, Side.Sell));
}

function keyOf(bid: TopLevel | null, ask: TopLevel | null): string {
  return `${bid?.join(' ')}|${ask?.join(' ')}`;
}

function topLevel(market: MarketSimulator, side: Side): TopLevel | null {
  const best = market.engine.levels(side).next();
  if (best.done) return null;
  const { priceScale, amountScale } = market.spec;
  return [formatUnits(best.value.price, priceScale), formatUnits(best.value.amount, amountScale)];
}
