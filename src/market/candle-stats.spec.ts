import { Candle, statsFromCandles } from './candle-stats';
import { EMPTY_STATS } from './market-stats';
import { DAY_MS } from './trade-window';

const NOW = 1_700_000_000_000;
const HOUR = 3_600_000;

function candle(start: number, values: Partial<Candle> = {}): Candle {
  return { start, end: start + HOUR, open: '10', high: '10', low: '10', close: '10', volume: '1', ...values };
}

describe('statsFromCandles', () => {
  it('takes open from the first candle, extremes from all, sums the volumes and reported quote volumes', () => {
    const candles = [
      candle(NOW - 2 * HOUR, {
        open: '11',
        high: '14',
        low: '9',
        close: '12',
        volume: '2',
        quoteVolume: '23',
      }),
      candle(NOW - 20 * HOUR, {
        open: '10',
        high: '12',
        low: '8',
        close: '11',
        volume: '1.5',
        quoteVolume: '16',
      }),
      candle(NOW - HOUR, {
        open: '12',
        high: '13',
        low: '11.5',
        close: '12.5',
        volume: '0.25',
        quoteVolume: '3.1',
      }),
    ];
    expect(statsFromCandles(candles, NOW)).toEqual({
      last: '12.5',
      open: '10',
      high: '14',
      low: '8',
      baseVolume: '3.75',
      quoteVolume: '42.1',
      tradeCount: 0,
      source: 'candles',
    });
  });

  it('counts candles that start after now - 24h and at or before now', () => {
    const candles = [
      candle(NOW - DAY_MS, { open: '1', volume: '100' }),
      candle(NOW - DAY_MS + 1, { open: '2', volume: '1' }),
      candle(NOW, { close: '3', volume: '2' }),
      candle(NOW + 1, { close: '4', volume: '1000' }),
    ];
    const stats = statsFromCandles(candles, NOW);
    expect(stats.open).toBe('2');
    expect(stats.last).toBe('3');
    expect(stats.baseVolume).toBe('3');
  });

  it('estimates the quote volume from mid prices when a candle lacks one, rounded half up to 18 decimals', () => {
    const candles = [
      candle(NOW - 3 * HOUR, { open: '1', close: '2', volume: '0.000000000000000001', quoteVolume: '5' }),
      candle(NOW - 2 * HOUR, { open: '100', close: '101', volume: '2' }),
    ];
    // 0.000000000000000001 x 1.5 + 2 x 100.5 = 201.0000000000000000015 -> 201.000000000000000002; the reported 5 is not used.
    expect(statsFromCandles(candles, NOW).quoteVolume).toBe('201.000000000000000002');
  });

  it('uses the given last price, which also bounds high and low', () => {
    const candles = [candle(NOW - HOUR, { high: '11', low: '9', close: '10' })];
    expect(statsFromCandles(candles, NOW, '12')).toMatchObject({ last: '12', high: '12', low: '9' });
    expect(statsFromCandles(candles, NOW, '8.5')).toMatchObject({ last: '8.5', high: '11', low: '8.5' });
  });

  it('leaves out candles without volume and lets a repeated start keep the later candle', () => {
    const candles = [
      candle(NOW - 5 * HOUR, { open: '7', volume: '0' }),
      candle(NOW - 4 * HOUR, { open: '8', volume: '1' }),
      candle(NOW - 4 * HOUR, { open: '8', high: '15', volume: '3' }),
    ];
    expect(statsFromCandles(candles, NOW)).toMatchObject({ open: '8', high: '15', baseVolume: '3' });
  });

  it('is all zeros without traded candles, even with a last price', () => {
    const empty = { ...EMPTY_STATS, source: 'candles' };
    expect(statsFromCandles([], NOW, '5')).toEqual(empty);
    expect(statsFromCandles([candle(NOW - HOUR, { volume: '0' })], NOW)).toEqual(empty);
    expect(statsFromCandles([candle(NOW - 2 * DAY_MS)], NOW)).toEqual(empty);
  });
});
