import { candlePoint, volumePoint } from './candle-points';

describe('candle points', () => {
  const bar = {
    time: 1767225600,
    open: '100.00',
    high: '101.50',
    low: '99.25',
    close: '99.75',
    volume: '0.50000000',
  };

  it('draws the prices as numbers at the bar’s time in seconds', () => {
    expect(candlePoint(bar)).toEqual({ time: 1767225600, open: 100, high: 101.5, low: 99.25, close: 99.75 });
  });

  it('draws the volume coloured as its candle: falling, then rising', () => {
    const falling = volumePoint(bar);
    const rising = volumePoint({ ...bar, close: '100.00' });
    expect(falling).toMatchObject({ time: 1767225600, value: 0.5 });
    expect(rising.value).toBe(0.5);
    expect(rising.color).not.toBe(falling.color);
  });
});
