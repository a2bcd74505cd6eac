import { Candle } from '../candle-stats';
import { barStartAtOrAfter, selectBars } from './bar-selection';
import { ONE_DAY, parseChartResolution } from './chart-resolution';

const MINUTE = 60_000;
const T = Date.UTC(2024, 4, 1);

function bars(...minutes: number[]): Candle[] {
  return minutes.map((minute) => ({
    start: T + minute * MINUTE,
    end: T + (minute + 1) * MINUTE,
    open: '1',
    high: '1',
    low: '1',
    close: '1',
    volume: '1',
  }));
}

const starts = (selected: { bars: readonly Candle[] }) =>
  selected.bars.map((one) => (one.start - T) / MINUTE);

describe('selectBars', () => {
  const held = bars(1, 2, 5, 9, 10);

  it('takes the bars starting in [from, to) and the start of the newest before them', () => {
    const selected = selectBars(held, { from: T + 2 * MINUTE, to: T + 10 * MINUTE });
    expect(starts(selected)).toEqual([2, 5, 9]);
    expect(selected.previous).toBe(T + MINUTE);
  });

  it('has no previous when nothing is older', () => {
    expect(selectBars(held, { from: T, to: T + 3 * MINUTE })).toEqual({ bars: bars(1, 2) });
  });

  it('gives the previous bar of an empty range', () => {
    expect(selectBars(held, { from: T + 6 * MINUTE, to: T + 9 * MINUTE })).toEqual({
      bars: [],
      previous: T + 5 * MINUTE,
    });
  });

  it('with countback takes the newest before to, whatever from says', () => {
    const selected = selectBars(held, { from: T + 100 * MINUTE, to: T + 10 * MINUTE, countback: 2 });
    expect(starts(selected)).toEqual([5, 9]);
    expect(selected.previous).toBe(T + 2 * MINUTE);
  });

  it('with a countback past the oldest takes them all, without previous', () => {
    expect(selectBars(held, { from: T, to: T + 60 * MINUTE, countback: 9 })).toEqual({ bars: held });
  });
});

describe('barStartAtOrAfter', () => {
  it('rounds a time up to a bar start of the resolution', () => {
    const five = parseChartResolution('5')!;
    expect(barStartAtOrAfter(T, five)).toBe(T);
    expect(barStartAtOrAfter(T + 1, five)).toBe(T + 5 * MINUTE);
    expect(barStartAtOrAfter(T + 1, ONE_DAY)).toBe(Date.UTC(2024, 4, 2));
    expect(barStartAtOrAfter(T + 1, parseChartResolution('1M')!)).toBe(Date.UTC(2024, 5, 1));
    expect(barStartAtOrAfter(T, parseChartResolution('1W')!)).toBe(Date.UTC(2024, 4, 6));
  });
});
