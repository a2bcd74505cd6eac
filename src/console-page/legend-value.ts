import type uPlot from 'uplot';

/**
 * A series' text in a chart's legend: of the point under the cursor, else `idle()` (the latest
 * figures), where uPlot's own writes `--` while the cursor is off the chart.
 */
export function legendValue(atPoint: (index: number) => string, idle: () => string): uPlot.Series.Value {
  return (_chart, _raw, _series, index) => (index === null ? idle() : atPoint(index));
}
