import { CANDLE_RESOLUTIONS, historyRange } from './candle-resolutions';

describe('historyRange', () => {
  const minute = CANDLE_RESOLUTIONS[0];

  it('ends just after now (to is exclusive), so the bar being built is in', () => {
    expect(historyRange(minute, 1767225659_999, 3)).toEqual({ from: 1767225660 - 180, to: 1767225660 });
  });

  it('spans a day of 1-minute bars by default', () => {
    const { from, to } = historyRange(minute, 1767225600_000);
    expect(to - from).toBe(86_400);
  });

  it('offers the panel’s resolutions by their TradingView names', () => {
    expect(CANDLE_RESOLUTIONS.map((resolution) => resolution.name)).toEqual([
      '1',
      '5',
      '15',
      '60',
      '240',
      '1D',
      '1W',
    ]);
  });
});
