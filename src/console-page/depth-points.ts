import { runningSums } from './decimal-sums';
import { Level } from './wire-types';

/**
 * A depth chart's points, from the lowest price to the highest, as the API's text: each level's
 * price and the cumulative amount up to it from the spread, bids left of the spread and asks right
 * of it (null on the other side).
 */
export interface DepthPoints {
  readonly prices: readonly string[];
  readonly bids: readonly (string | null)[];
  readonly asks: readonly (string | null)[];
}

/** The points of a book's sides, best first as the API sends them; the sums are exact. */
export function depthPoints(bids: readonly Level[], asks: readonly Level[]): DepthPoints {
  const bidTotals = runningSums(bids.map(([, amount]) => amount)).reverse();
  const askTotals = runningSums(asks.map(([, amount]) => amount));
  return {
    prices: [...bids.map(([price]) => price).reverse(), ...asks.map(([price]) => price)],
    bids: [...bidTotals, ...asks.map(() => null)],
    asks: [...bids.map(() => null), ...askTotals],
  };
}

/** The points as the chart draws them: numbers, at a chart's precision, not the figures'. */
export function plotted(points: DepthPoints): [number[], (number | null)[], (number | null)[]] {
  const number = (text: string | null) => (text === null ? null : Number(text));
  return [points.prices.map(Number), points.bids.map(number), points.asks.map(number)];
}
