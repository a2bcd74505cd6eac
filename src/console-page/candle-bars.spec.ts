import { CandleBar, frameBar, historyBars, mergeBar, priceDigits, rises } from './candle-bars';
import { parseNumbersAsText } from './numbers-as-text';
import { UdfHistory } from './candle-bars';

const bar = (time: number, close: string, volume = '1.00000000'): CandleBar => ({
  time,
  open: '100.00',
  high: '101.50',
  low: '99.00',
  close,
  volume,
});

describe('historyBars', () => {
  it('zips the columns into bars, oldest first, the figures as the body wrote them', () => {
    const body = parseNumbersAsText(
      '{"s":"ok","t":[1767225600,1767225660],"o":[0.000000001230000000,2],"h":[3,4],"l":[0.5,1],"c":[2.10,3.000],"v":[12.50000000,0.00000001]}',
    ) as UdfHistory;
    expect(historyBars(body)).toEqual([
      {
        time: 1767225600,
        open: '0.000000001230000000',
        high: '3',
        low: '0.5',
        close: '2.10',
        volume: '12.50000000',
      },
      { time: 1767225660, open: '2', high: '4', low: '1', close: '3.000', volume: '0.00000001' },
    ]);
  });

  it('has no bars for no_data', () => {
    expect(historyBars({ s: 'no_data', nextTime: '1767225600' })).toEqual([]);
  });

  it('refuses an error and columns of different lengths', () => {
    expect(() => historyBars({ s: 'error', errmsg: 'unknown symbol' })).toThrow('unknown symbol');
    expect(() =>
      historyBars({ s: 'ok', t: ['1', '2'], o: ['1'], h: ['1'], l: ['1'], c: ['1'], v: ['1'] }),
    ).toThrow('different lengths');
  });
});

describe('frameBar', () => {
  it('takes the bar of a stream frame, its start in seconds', () => {
    expect(
      frameBar({
        type: 'candle',
        channel: 'candles.btc_usdt.1',
        time: 1767225660000,
        open: '1.0',
        high: '2.0',
        low: '0.5',
        close: '1.5',
        volume: '3',
        closed: false,
      }),
    ).toEqual({ time: 1767225660, open: '1.0', high: '2.0', low: '0.5', close: '1.5', volume: '3' });
  });
});

describe('mergeBar', () => {
  const series = [bar(60, '100.50'), bar(120, '100.75')];

  it('replaces the newest bar with a frame of its time', () => {
    expect(mergeBar(series, bar(120, '101.00'))).toEqual({
      bars: [bar(60, '100.50'), bar(120, '101.00')],
      change: 'last',
    });
  });

  it('appends a newer bar', () => {
    expect(mergeBar(series, bar(180, '99.50'))).toEqual({
      bars: [...series, bar(180, '99.50')],
      change: 'new',
    });
    expect(mergeBar([], bar(180, '99.50'))).toEqual({ bars: [bar(180, '99.50')], change: 'new' });
  });

  it('corrects or inserts an older bar in its place', () => {
    expect(mergeBar(series, bar(60, '100.60'))).toEqual({
      bars: [bar(60, '100.60'), bar(120, '100.75')],
      change: 'earlier',
    });
    expect(mergeBar(series, bar(0, '100.60')).bars.map((each) => each.time)).toEqual([0, 60, 120]);
    expect(mergeBar([bar(0, '1'), bar(120, '2')], bar(60, '3'))).toEqual({
      bars: [bar(0, '1'), bar(60, '3'), bar(120, '2')],
      change: 'earlier',
    });
  });

  it('changes nothing for the same figures again (a closed bar confirmed)', () => {
    const merged = mergeBar(series, bar(120, '100.75'));
    expect(merged.change).toBe('none');
    expect(merged.bars).toBe(series);
  });

  it('leaves the series it was given as it was', () => {
    const before = JSON.stringify(series);
    mergeBar(series, bar(120, '1.00'));
    mergeBar(series, bar(60, '1.00'));
    expect(JSON.stringify(series)).toBe(before);
  });
});

describe('rises and priceDigits', () => {
  it('compares close and open exactly, beyond a float’s digits', () => {
    const open = '0.000000001234567890123456';
    expect(rises({ ...bar(0, '0.000000001234567890123457'), open })).toBe(true);
    expect(rises({ ...bar(0, '0.000000001234567890123455'), open })).toBe(false);
    expect(rises({ ...bar(0, '100.0'), open: '100' })).toBe(true);
  });

  it('writes the axis with the longest fraction of the prices', () => {
    expect(priceDigits([bar(0, '100.125'), bar(60, '99')])).toBe(3);
    expect(priceDigits([])).toBe(0);
  });
});
