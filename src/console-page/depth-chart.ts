import { ChartPanel } from './chart-panel';
import { Level } from './wire-types';

/**
 * The cumulative amount at each price, bids left of the spread and asks right of it. Prices are
 * plotted as numbers: the chart's precision, not the figures', which the tables show exactly.
 */
export function depthSeries(
  bids: readonly Level[],
  asks: readonly Level[],
): [number[], (number | null)[], (number | null)[]] {
  const prices: number[] = [];
  const bidDepth: (number | null)[] = [];
  const askDepth: (number | null)[] = [];
  let total = 0;
  const cumulativeBids = bids
    .map(([price, amount]) => [Number(price), (total += Number(amount))] as const)
    .reverse();
  for (const [price, depth] of cumulativeBids) {
    prices.push(price);
    bidDepth.push(depth);
    askDepth.push(null);
  }
  total = 0;
  for (const [price, amount] of asks) {
    prices.push(Number(price));
    bidDepth.push(null);
    askDepth.push((total += Number(amount)));
  }
  return [prices, bidDepth, askDepth];
}

export function depthChart(container: HTMLElement): (bids: readonly Level[], asks: readonly Level[]) => void {
  const panel = new ChartPanel(container, (width) => ({
    width,
    height: 260,
    scales: { x: { time: false } },
    series: [
      { label: 'price' },
      { label: 'bids', stroke: '#2b8a3e', fill: 'rgba(43,138,62,0.15)', width: 2 },
      { label: 'asks', stroke: '#c92a2a', fill: 'rgba(201,42,42,0.15)', width: 2 },
    ],
    axes: [{}, { label: 'cumulative amount' }],
  }));
  return (bids, asks) => {
    if (bids.length + asks.length === 0) return;
    panel.update(depthSeries(bids, asks));
  };
}
