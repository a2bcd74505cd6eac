import type uPlot from 'uplot';
import { fitLabels, plainTicks, roomForLabels } from './plain-ticks';

const chart = {} as uPlot;

describe('plain tick labels', () => {
  it('write as many places as the step needs, in plain decimals', () => {
    expect(plainTicks(chart, [4.31e-9, 4.32e-9, 4.33e-9], 0, 50, 1e-11)).toEqual([
      '0.00000000431',
      '0.00000000432',
      '0.00000000433',
    ]);
    expect(plainTicks(chart, [64850, 64900], 0, 50, 50)).toEqual(['64850', '64900']);
    expect(plainTicks(chart, [0.25, 0.3], 0, 50, 0.05)).toEqual(['0.25', '0.30']);
  });

  it('leave each label room for its length', () => {
    expect(fitLabels(chart, ['0', '50000000000'])).toBe(16 + 8 * 11);
    expect(roomForLabels(chart, 0, 4.31e-9, 4.34e-9)).toBeGreaterThan(roomForLabels(chart, 0, 64800, 65100));
  });
});
