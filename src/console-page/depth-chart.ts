import { ChartPanel } from './chart-panel';
import { DepthPoints, depthPoints, plotted } from './depth-points';
import { money } from './formats';
import { legendValue } from './legend-value';
import { fitLabels, plainTicks, roomForLabels } from './plain-ticks';
import { Level } from './wire-types';

/**
 * The cumulative amount at each price, bids left of the spread and asks right of it. Its legend
 * writes the level under the cursor, else the best prices and each side's whole depth, as the API's
 * text with the base asset's unit.
 */
export function depthChart(
  container: HTMLElement,
): (bids: readonly Level[], asks: readonly Level[], base: string) => void {
  let points: DepthPoints = { prices: [], bids: [], asks: [] };
  let unit = '';
  let best = '';
  const total = (side: readonly (string | null)[], at: number) => money(side[at] ?? null, unit);
  const panel = new ChartPanel(container, (width) => ({
    width,
    height: 260,
    scales: { x: { time: false } },
    series: [
      {
        label: 'price',
        value: legendValue(
          (at) => points.prices[at] ?? best,
          () => best,
        ),
      },
      {
        label: 'bids',
        stroke: '#2b8a3e',
        fill: 'rgba(43,138,62,0.15)',
        width: 2,
        value: legendValue(
          (at) => total(points.bids, at),
          () => total(points.bids, 0),
        ),
      },
      {
        label: 'asks',
        stroke: '#c92a2a',
        fill: 'rgba(201,42,42,0.15)',
        width: 2,
        value: legendValue(
          (at) => total(points.asks, at),
          () => total(points.asks, points.asks.length - 1),
        ),
      },
    ],
    axes: [
      { values: plainTicks, space: roomForLabels },
      { label: 'cumulative amount', values: plainTicks, size: fitLabels },
    ],
  }));
  return (bids, asks, base) => {
    if (bids.length + asks.length === 0) return;
    points = depthPoints(bids, asks);
    unit = base;
    best = `${bids[0]?.[0] ?? '—'} / ${asks[0]?.[0] ?? '—'}`;
    panel.update(plotted(points));
  };
}
