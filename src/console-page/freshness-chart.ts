import { ChartPanel } from './chart-panel';
import { FreshnessSample } from './wire-types';

const HOUR_SECONDS = 3_600;

/** The last hour of the oldest data age (seconds) and of the share of markets fresh (percent). */
export function freshnessChart(container: HTMLElement): (samples: readonly FreshnessSample[]) => void {
  const panel = new ChartPanel(container, (width) => ({
    width,
    height: 200,
    // Always the last hour, also while the replica has been up for less.
    scales: {
      x: { time: true, range: (_chart, _min, max) => [max - HOUR_SECONDS, max] },
      age: { auto: true, range: (_chart, _min, max) => [0, Math.max(1, max)] },
      share: { range: [0, 100] },
    },
    series: [
      {},
      { label: 'oldest data age (s)', scale: 'age', stroke: '#d9822b', width: 2, points: { show: true } },
      { label: 'markets fresh (%)', scale: 'share', stroke: '#2b8a3e', width: 2, points: { show: true } },
    ],
    axes: [{}, { scale: 'age', label: 's' }, { scale: 'share', side: 1, label: '%', grid: { show: false } }],
  }));
  return (samples) => {
    if (samples.length === 0) return;
    panel.update([
      samples.map((sample) => sample.at / 1000),
      samples.map((sample) => (sample.maxDataAgeMs === null ? null : sample.maxDataAgeMs / 1000)),
      samples.map((sample) => (sample.markets === 0 ? null : (100 * sample.fresh) / sample.markets)),
    ]);
  };
}
