import fc from 'fast-check';
import {
  bucketEnd,
  bucketStart,
  CANDLE_INTERVALS,
  CandleInterval,
  isCandleInterval,
  MAX_CANDLES,
} from './candle-interval';

const at = (text: string): number => Date.parse(text);

describe('candle intervals', () => {
  it('are the nine the exchange offers, with at most 1000 candles a request', () => {
    expect([...CANDLE_INTERVALS]).toEqual(['1m', '5m', '15m', '30m', '1h', '12h', '1d', '1w', '1M']);
    expect(MAX_CANDLES).toBe(1000);
  });

  it('recognises exactly those names', () => {
    for (const interval of CANDLE_INTERVALS) expect(isCandleInterval(interval)).toBe(true);
    for (const text of ['4h', '6h', '1H', '1D', '1mo', '60m', '', ' 1m', 'toString'])
      expect(isCandleInterval(text)).toBe(false);
  });
});

describe('bucketStart and bucketEnd', () => {
  it('put the hourly candle of the exchange sample at 09:00-10:00', () => {
    const trade = at('2019-03-13T09:41:07.250Z');
    expect(bucketStart(trade, '1h')).toBe(at('2019-03-13T09:00:00Z'));
    expect(bucketEnd(bucketStart(trade, '1h'), '1h')).toBe(at('2019-03-13T10:00:00Z'));
  });

  it.each<[CandleInterval, string, string]>([
    ['1m', '2019-03-13T09:41:00Z', '2019-03-13T09:42:00Z'],
    ['5m', '2019-03-13T09:40:00Z', '2019-03-13T09:45:00Z'],
    ['15m', '2019-03-13T09:30:00Z', '2019-03-13T09:45:00Z'],
    ['30m', '2019-03-13T09:30:00Z', '2019-03-13T10:00:00Z'],
    ['12h', '2019-03-13T00:00:00Z', '2019-03-13T12:00:00Z'],
    ['1d', '2019-03-13T00:00:00Z', '2019-03-14T00:00:00Z'],
    ['1w', '2019-03-11T00:00:00Z', '2019-03-18T00:00:00Z'],
    ['1M', '2019-03-01T00:00:00Z', '2019-04-01T00:00:00Z'],
  ])('%s: a trade at 2019-03-13T09:41:07.25Z falls in [%s, %s)', (interval, start, end) => {
    const bucket = bucketStart(at('2019-03-13T09:41:07.250Z'), interval);
    expect(bucket).toBe(at(start));
    expect(bucketEnd(bucket, interval)).toBe(at(end));
  });

  it('starts weeks on Monday, a Monday included, and months on the first', () => {
    expect(bucketStart(at('2024-01-01T00:00:00Z'), '1w')).toBe(at('2024-01-01T00:00:00Z'));
    expect(bucketStart(at('2024-01-07T23:59:59.999Z'), '1w')).toBe(at('2024-01-01T00:00:00Z'));
    expect(bucketStart(at('1970-01-01T00:00:00Z'), '1w')).toBe(at('1969-12-29T00:00:00Z'));
    expect(bucketStart(at('1969-12-28T12:00:00Z'), '1w')).toBe(at('1969-12-22T00:00:00Z'));
    expect(bucketStart(at('2024-02-29T18:00:00Z'), '1M')).toBe(at('2024-02-01T00:00:00Z'));
    expect(bucketEnd(at('2024-02-01T00:00:00Z'), '1M')).toBe(at('2024-03-01T00:00:00Z'));
    expect(bucketEnd(at('2023-12-01T00:00:00Z'), '1M')).toBe(at('2024-01-01T00:00:00Z'));
  });

  it('keep years before 100 in place', () => {
    const yearFifty = new Date(0);
    yearFifty.setUTCFullYear(50, 5, 15);
    const june = new Date(0);
    june.setUTCFullYear(50, 5, 1);
    const july = new Date(0);
    july.setUTCFullYear(50, 6, 1);
    expect(bucketStart(yearFifty.getTime(), '1M')).toBe(june.getTime());
    expect(bucketEnd(june.getTime(), '1M')).toBe(july.getTime());
  });

  const time = fc.integer({ min: -62_135_596_800_000, max: 253_402_300_799_999 });
  const interval = fc.constantFrom(...CANDLE_INTERVALS);

  it('hold every instant: start <= t < end, the start a bucket start of its own', () => {
    fc.assert(
      fc.property(time, interval, (t, width) => {
        const start = bucketStart(t, width);
        const end = bucketEnd(start, width);
        expect(start).toBeLessThanOrEqual(t);
        expect(t).toBeLessThan(end);
        expect(bucketStart(start, width)).toBe(start);
        expect(bucketStart(end, width)).toBe(end);
        expect(bucketStart(end - 1, width)).toBe(start);
      }),
    );
  });

  it('begin on a UTC midnight for days, weeks and months, a Monday for weeks, the 1st for months', () => {
    fc.assert(
      fc.property(time, fc.constantFrom<CandleInterval>('1d', '1w', '1M'), (t, width) => {
        const start = new Date(bucketStart(t, width));
        expect(start.toISOString()).toMatch(/T00:00:00\.000Z$/);
        if (width === '1w') expect(start.getUTCDay()).toBe(1);
        if (width === '1M') expect(start.getUTCDate()).toBe(1);
      }),
    );
  });
});
