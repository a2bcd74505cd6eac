import { ChartResolution, parseChartResolution } from '../../market/bars/chart-resolution';
import { Candle } from '../../market/candle-stats';
import { MarketInfo } from '../../market/market-info';
import { BarQuery, ChartBars } from '../charts/chart-bars';
import { earlierBarsOf } from './earlier-bars';

const DAY = 86_400_000;
const MINUTE = 60_000;
const market = { instrument: 'btc_usdt' } as MarketInfo;

function bar(
  start: number,
  length: number,
  open: string,
  high: string,
  low: string,
  close: string,
  volume: string,
) {
  return { start, end: start + length, open, high, low, close, volume };
}

/** Answers from fixed days and minutes, and keeps what it was asked. */
class FixedChartBars extends ChartBars {
  readonly asked: [string, BarQuery][] = [];

  constructor(
    private readonly days: Candle[],
    private readonly minutes: Candle[],
  ) {
    super();
  }

  bars(_: MarketInfo, resolution: ChartResolution, query: BarQuery) {
    this.asked.push([resolution.name, query]);
    const all = resolution.name === '1D' ? this.days : this.minutes;
    return Promise.resolve({ bars: all.filter((each) => each.start >= query.from && each.start < query.to) });
  }
}

describe('earlierBarsOf', () => {
  const week = Date.UTC(2026, 0, 5);
  const to = week + 2 * DAY + 13 * 3_600_000 + 7 * MINUTE;

  it("rolls up the whole days before the trade list's day, then that day's earlier minutes", async () => {
    const chart = new FixedChartBars(
      [bar(week, DAY, '10', '12', '9', '11', '1'), bar(week + DAY, DAY, '11', '15', '11', '14', '2')],
      [
        bar(week + 2 * DAY, MINUTE, '14', '14', '8', '13', '0.5'),
        bar(to - MINUTE, MINUTE, '13', '13', '13', '13', '0.25'),
      ],
    );
    const earlier = await earlierBarsOf(chart)(market, parseChartResolution('1W')!, week, to);

    expect(chart.asked).toEqual([
      ['1D', { from: week, to: week + 2 * DAY }],
      ['1', { from: week + 2 * DAY, to }],
    ]);
    expect(earlier).toEqual({
      start: week,
      end: week + 7 * DAY,
      open: '10',
      high: '15',
      low: '8',
      close: '13',
      volume: '3.75',
    });
  });

  it('is nothing when history holds no bar of the period', async () => {
    const chart = new FixedChartBars([], []);
    expect(
      await earlierBarsOf(chart)(market, parseChartResolution('1M')!, Date.UTC(2026, 0, 1), to),
    ).toBeUndefined();
  });
});
