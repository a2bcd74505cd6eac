import { ONE_DAY, ONE_MINUTE, parseChartResolution } from './chart-resolution';
import { BarTrade, LiveBars } from './live-bar';

const MINUTE = 60_000;
const T0 = Date.UTC(2026, 0, 5, 10, 0);

function trade(id: number, time: number, price: string, amount = '1'): BarTrade {
  return { id: String(id), time, price, amount };
}

describe('LiveBars', () => {
  it('builds the open bar from the trades of its bucket, exactly', () => {
    const bars = new LiveBars(ONE_MINUTE);
    const changes = bars.apply(
      [
        trade(1, T0 + 1_000, '10.5', '0.1'),
        trade(2, T0 + 2_000, '11', '0.2'),
        trade(3, T0 + 3_000, '9.9', '0.3'),
      ],
      T0 + 3_000,
    );
    expect(changes.closed).toEqual([]);
    expect(changes.open).toEqual({
      start: T0,
      end: T0 + MINUTE,
      open: '10.5',
      high: '11',
      low: '9.9',
      close: '9.9',
      volume: '0.6',
    });
  });

  it('takes open and close by trade time, then id, whatever the order of arrival', () => {
    const bars = new LiveBars(ONE_MINUTE);
    bars.apply([trade(5, T0 + 5_000, '2'), trade(7, T0 + 7_000, '3')], T0 + 7_000);
    const changes = bars.apply([trade(4, T0 + 5_000, '1')], T0 + 8_000);
    expect(changes.open).toMatchObject({ open: '1', close: '3', low: '1', volume: '3' });
  });

  it('counts a trade seen twice once, and reports no change for it', () => {
    const bars = new LiveBars(ONE_MINUTE);
    bars.apply([trade(1, T0, '1')], T0);
    expect(bars.apply([trade(1, T0, '1')], T0)).toEqual({ closed: [], corrected: [], open: undefined });
    expect(bars.open?.volume).toBe('1');
  });

  it('closes the open bar on a trade of a newer bucket', () => {
    const bars = new LiveBars(ONE_MINUTE);
    bars.apply([trade(1, T0, '1')], T0);
    const changes = bars.apply([trade(2, T0 + MINUTE + 1, '2')], T0 + MINUTE + 1);
    expect(changes.closed).toEqual([expect.objectContaining({ start: T0, close: '1' })]);
    expect(changes.open).toMatchObject({ start: T0 + MINUTE, open: '2' });
  });

  it('closes the open bar once the clock passes its end, once', () => {
    const bars = new LiveBars(ONE_MINUTE);
    bars.apply([trade(1, T0, '1')], T0);
    expect(bars.close(T0 + MINUTE - 1).closed).toEqual([]);
    expect(bars.openEnd).toBe(T0 + MINUTE);
    expect(bars.close(T0 + MINUTE).closed).toEqual([expect.objectContaining({ start: T0 })]);
    expect(bars.close(T0 + MINUTE + 1).closed).toEqual([]);
    expect(bars.open).toBeUndefined();
    expect(bars.openEnd).toBeUndefined();
  });

  it('corrects a closed bar with a late trade, and makes one for a bucket that had none', () => {
    const bars = new LiveBars(ONE_MINUTE);
    bars.apply([trade(1, T0, '1'), trade(3, T0 + 2 * MINUTE, '3')], T0 + 2 * MINUTE);
    const late = bars.apply([trade(2, T0 + 30_000, '0.5'), trade(4, T0 + MINUTE + 1, '2')], T0 + 2 * MINUTE);
    expect(late.corrected).toEqual([
      expect.objectContaining({ start: T0, low: '0.5', close: '0.5', volume: '2' }),
      expect.objectContaining({ start: T0 + MINUTE, open: '2', volume: '1' }),
    ]);
    expect(late.open).toBeUndefined();
    expect(late.closed).toEqual([]);
  });

  it('ignores a trade older than every bar held', () => {
    const bars = new LiveBars(ONE_MINUTE);
    bars.apply([trade(1, T0, '1')], T0);
    expect(bars.apply([trade(0, T0 - MINUTE, '1')], T0)).toEqual({
      closed: [],
      corrected: [],
      open: undefined,
    });
  });

  it('builds daily bars from 00:00 UTC', () => {
    const bars = new LiveBars(ONE_DAY);
    const changes = bars.apply([trade(1, T0, '1', '2'), trade(2, T0 + 3_600_000, '4', '3')], T0 + 3_600_000);
    expect(changes.open).toMatchObject({ start: Date.UTC(2026, 0, 5), open: '1', close: '4', volume: '5' });
  });

  it('starts a week from the bar of its older part, then adds the trades', () => {
    const bars = new LiveBars(parseChartResolution('1W')!);
    const week = Date.UTC(2026, 0, 5);
    const end = week + 7 * 86_400_000;
    bars.seed({ start: week, end, open: '5', high: '9', low: '4', close: '6', volume: '10' });
    expect(bars.open).toEqual({ start: week, end, open: '5', high: '9', low: '4', close: '6', volume: '10' });

    const later = week + 3 * 86_400_000;
    const changes = bars.apply(
      [trade(1, later, '3', '0.5'), trade(2, later + 1_000, '7', '1')],
      later + 1_000,
    );
    expect(changes.open).toEqual({
      start: week,
      end,
      open: '5',
      high: '9',
      low: '3',
      close: '7',
      volume: '11.5',
    });
    expect(() =>
      bars.seed({ start: week, end, open: '1', high: '1', low: '1', close: '1', volume: '1' }),
    ).toThrow();
  });
});
