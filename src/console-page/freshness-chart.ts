import { ChartPanel } from './chart-panel';
import { age, clock } from './formats';
import { legendValue } from './legend-value';
import { FreshnessSample } from './wire-types';

const HOUR_SECONDS = 3_600;

/**
 * The last hour of the oldest data age (seconds) and of the share of markets fresh (percent). Its
 * legend writes the sample under the cursor, else the latest one.
 */
export function freshnessChart(container: HTMLElement): (samples: readonly FreshnessSample[]) => void {
  let shown: readonly FreshnessSample[] = [];
  const sampleText = (write: (sample: FreshnessSample) => string) =>
    legendValue(
      (at) => write(shown[at] ?? shown[shown.length - 1]),
      () => write(shown[shown.length - 1]),
    );
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
      { label: 'time', value: sampleText((sample) => clock(sample.at)) },
      {
        label: 'oldest data age',
        scale: 'age',
        stroke: '#d9822b',
        width: 2,
        points: { show: true },
        value: sampleText((sample) => age(sample.maxDataAgeMs)),
      },
      {
        label: 'markets fresh',
        scale: 'share',
        stroke: '#2b8a3e',
        width: 2,
        points: { show: true },
        value: sampleText((sample) => `${sample.fresh} of ${sample.markets}`),
      },
    ],
    axes: [{}, { scale: 'age', label: 's' }, { scale: 'share', side: 1, label: '%', grid: { show: false } }],
  }));
  return (samples) => {
    if (samples.length === 0) return;
    shown = samples;
    panel.update([
      samples.map((sample) => sample.at / 1000),
      samples.map((sample) => (sample.maxDataAgeMs === null ? null : sample.maxDataAgeMs / 1000)),
      samples.map((sample) => (sample.markets === 0 ? null : (100 * sample.fresh) / sample.markets)),
    ]);
  };
}
