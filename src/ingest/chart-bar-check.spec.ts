import { Candle } from '../market/candle-stats';
import { mismatchingBars } from './chart-bar-check';

const bar = (minute: number, close = '10', volume = '1'): Candle => ({
  start: minute * 60_000,
  end: (minute + 1) * 60_000,
  open: '10',
  high: '11',
  low: '9',
  close,
  volume,
});

describe('mismatchingBars', () => {
  it('finds none in equal bars', () => {
    expect(mismatchingBars([bar(1), bar(2)], [bar(1), bar(2)])).toBe(0);
  });

  it('counts a differing figure once per bar', () => {
    expect(mismatchingBars([bar(1, '12'), bar(2, '10', '2')], [bar(1), bar(2)])).toBe(2);
  });

  it('counts a minute on either side only', () => {
    expect(mismatchingBars([bar(1), bar(3)], [bar(1), bar(2), bar(4)])).toBe(3);
    expect(mismatchingBars([], [bar(1)])).toBe(1);
    expect(mismatchingBars([bar(1)], [])).toBe(1);
  });

  it('ignores the quote volume, which only one side may report', () => {
    expect(mismatchingBars([{ ...bar(1), quoteVolume: '10' }], [bar(1)])).toBe(0);
  });
});
