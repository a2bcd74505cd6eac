import { Candle } from '../candle-stats';
import { CandleInterval } from '../candle-interval';
import { tradeCandles } from '../trade-candles';
import { TradeColumns } from '../trade-columns';
import { randomTrades } from './testing/random-trades';
import { rollUpBars } from './bar-roll-up';
import { ONE_DAY, parseChartResolution } from './chart-resolution';
import { tradeMinuteBars } from './trade-minute-bars';

const DAY = 86_400_000;
const MINUTE = 60_000;
const T = Date.UTC(2024, 0, 29); // a Monday
const resolution = (name: string) => parseChartResolution(name)!;

function bar(start: number, open: string, high: string, low: string, close: string, volume: string): Candle {
  return { start, end: start + MINUTE, open, high, low, close, volume };
}

describe('rollUpBars', () => {
  it('takes the first open, the last close, the extremes and the exact sum of the volumes', () => {
    const bars = [
      bar(T, '10', '12', '9.5', '11', '0.1'),
      bar(T + MINUTE, '11', '12.5', '10', '10.5', '0.2'),
      bar(T + 4 * MINUTE, '10.5', '10.5', '9.25', '9.75', '0.000000000000000001'),
      bar(T + 7 * MINUTE, '8', '8', '8', '8', '3'),
    ];
    expect(rollUpBars(bars, resolution('5'))).toEqual([
      {
        start: T,
        end: T + 5 * MINUTE,
        open: '10',
        high: '12.5',
        low: '9.25',
        close: '9.75',
        volume: '0.300000000000000001',
      },
      {
        start: T + 5 * MINUTE,
        end: T + 10 * MINUTE,
        open: '8',
        high: '8',
        low: '8',
        close: '8',
        volume: '3',
      },
    ]);
  });

  it('sums quote volumes only when every bar has one', () => {
    const withQuote = { ...bar(T, '1', '1', '1', '1', '2'), quoteVolume: '2' };
    const without = bar(T + MINUTE, '1', '1', '1', '1', '1');
    expect(rollUpBars([withQuote, { ...withQuote, start: T + MINUTE }], ONE_DAY)[0].quoteVolume).toBe('4');
    expect(rollUpBars([withQuote, without], ONE_DAY)[0]).not.toHaveProperty('quoteVolume');
  });

  it('makes nothing of nothing', () => {
    expect(rollUpBars([], ONE_DAY)).toEqual([]);
  });

  describe('equals the bars built from the trades of each bar', () => {
    // Five weeks over a month's end, with quiet hours: 40,000 trades.
    const trades = randomTrades(11, 40_000, T, T + 35 * DAY);
    const minutes = tradeMinuteBars(TradeColumns.of(trades), T, T + 35 * DAY);
    const days = rollUpBars(minutes, ONE_DAY);

    it.each<[string, CandleInterval]>([
      ['5', '5m'],
      ['15', '15m'],
      ['30', '30m'],
      ['60', '1h'],
      ['1D', '1d'],
    ])('%s from 1-minute bars', (name, interval) => {
      expect(rollUpBars(minutes, resolution(name))).toEqual(tradeCandles(trades, interval));
    });

    it.each<[string, CandleInterval]>([
      ['1W', '1w'],
      ['1M', '1M'],
    ])('%s from daily bars', (name, interval) => {
      expect(rollUpBars(days, resolution(name))).toEqual(tradeCandles(trades, interval));
    });

    it('240 from 1-minute bars as from hourly bars', () => {
      const fourHours = rollUpBars(minutes, resolution('240'));
      expect(fourHours).toEqual(rollUpBars(tradeCandles(trades, '1h'), resolution('240')));
      expect(fourHours.every((one) => one.start % (4 * 3_600_000) === 0)).toBe(true);
    });

    it('no bar without a trade', () => {
      const tradeMinutes = new Set(trades.map((one) => one.time - (one.time % MINUTE)));
      expect(minutes.map((one) => one.start)).toEqual([...tradeMinutes]);
      const quietHour = T + 3_600_000 * 5; // hour 5 of the epoch's count is quiet (5 % 4 === 1)
      expect(Math.floor(quietHour / 3_600_000) % 4).toBe(1);
      expect(minutes.some((one) => one.start >= quietHour && one.start < quietHour + 3_600_000)).toBe(false);
      expect(rollUpBars(minutes, resolution('60')).some((one) => one.start === quietHour)).toBe(false);
    });
  });
});
