import fc from 'fast-check';
import { formatExchangeDate, parseExchangeDate } from './exchange-date';

describe('formatExchangeDate', () => {
  it('writes the candle dates of the exchange sample: whole seconds, a trailing Z', () => {
    expect(formatExchangeDate(Date.UTC(2019, 2, 13, 9))).toBe('2019-03-13T09:00:00Z');
    expect(formatExchangeDate(Date.UTC(2019, 2, 13, 11))).toBe('2019-03-13T11:00:00Z');
  });

  it('writes milliseconds when there are any', () => {
    expect(formatExchangeDate(Date.UTC(2019, 2, 13, 10, 28, 0, 997))).toBe('2019-03-13T10:28:00.997Z');
    expect(formatExchangeDate(Date.UTC(2024, 1, 29, 23, 59, 59, 5))).toBe('2024-02-29T23:59:59.005Z');
    expect(formatExchangeDate(-1)).toBe('1969-12-31T23:59:59.999Z');
  });

  it('refuses an instant that is no date', () => {
    expect(() => formatExchangeDate(NaN)).toThrow(RangeError);
  });
});

describe('parseExchangeDate', () => {
  it('reads the documented format as UTC, with or without Z', () => {
    expect(parseExchangeDate('2019-03-13T09:00:00')).toBe(Date.UTC(2019, 2, 13, 9));
    expect(parseExchangeDate('2021-05-06T07:08:09Z')).toBe(Date.UTC(2021, 4, 6, 7, 8, 9));
    expect(parseExchangeDate('2019-12-20T08:20:51')).toBe(Date.UTC(2019, 11, 20, 8, 20, 51));
  });

  it('reads fractions, finer ones dropped or rounded up', () => {
    expect(parseExchangeDate('2019-11-14T16:18:49.253354')).toBe(Date.UTC(2019, 10, 14, 16, 18, 49, 253));
    expect(parseExchangeDate('2019-11-14T16:18:49.253354', true)).toBe(
      Date.UTC(2019, 10, 14, 16, 18, 49, 254),
    );
    expect(parseExchangeDate('2019-03-13T09:00:00.5Z')).toBe(Date.UTC(2019, 2, 13, 9, 0, 0, 500));
    expect(parseExchangeDate('2020-01-01T00:00:00.001000000', true)).toBe(Date.UTC(2020, 0, 1, 0, 0, 0, 1));
    expect(parseExchangeDate('2020-01-01T00:00:00.999999999', true)).toBe(Date.UTC(2020, 0, 1, 0, 0, 1));
    expect(parseExchangeDate('2020-01-01T00:00:00.000000001', true)).toBe(Date.UTC(2020, 0, 1, 0, 0, 0, 1));
  });

  it('knows leap years and the years before 100', () => {
    expect(parseExchangeDate('2024-02-29T23:59:59')).toBe(Date.UTC(2024, 1, 29, 23, 59, 59));
    expect(parseExchangeDate('2000-02-29T00:00:00')).toBe(Date.UTC(2000, 1, 29));
    expect(parseExchangeDate('0001-01-01T00:00:00')).toBe(-62_135_596_800_000);
    expect(parseExchangeDate('0000-02-29T00:00:00')).toBe(-62_162_121_600_000);
  });

  it.each([
    '',
    '2019-03-13',
    '2019-03-13 09:00:00',
    '2019-03-13T09:00',
    '2019-3-13T09:00:00',
    '2019-03-13T09:00:00+01:00',
    '2019-03-13T09:00:00.',
    '2019-03-13T09:00:00.1234567890',
    '2019-03-13T09:00:00z',
    '2019-13-01T00:00:00',
    '2019-00-01T00:00:00',
    '2019-01-00T00:00:00',
    '2023-02-29T00:00:00',
    '1900-02-29T00:00:00',
    '2019-04-31T00:00:00',
    '2019-03-13T24:00:00',
    '2019-03-13T23:60:00',
    '2019-03-13T23:59:60',
    '1552467600000',
    ' 2019-03-13T09:00:00',
    '2019-03-13T09:00:00Z ',
  ])('refuses %p', (text) => {
    expect(parseExchangeDate(text)).toBeUndefined();
  });

  const instant = fc.integer({ min: -62_135_596_800_000, max: 253_402_300_799_999 });

  it('reads back every instant it writes', () => {
    fc.assert(
      fc.property(instant, fc.boolean(), (ms, roundUp) => {
        expect(parseExchangeDate(formatExchangeDate(ms), roundUp)).toBe(ms);
      }),
    );
  });

  it('agrees with Date on every calendar day, and refuses the days after a month ends', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 9999 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 31 }),
        (year, month, day) => {
          const text = `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}T12:34:56`;
          const date = new Date(0);
          date.setUTCFullYear(year, month - 1, day);
          date.setUTCHours(12, 34, 56);
          const exists = date.getUTCDate() === day;
          expect(parseExchangeDate(text)).toBe(exists ? date.getTime() : undefined);
        },
      ),
    );
  });

  it('rounds a finer fraction up to the next millisecond at most', () => {
    const second = fc.integer({ min: -62_135_596_800, max: 253_402_300_799 });
    fc.assert(
      fc.property(second, fc.nat(999), fc.stringMatching(/^\d{6}$/), (seconds, ms, finer) => {
        const text = `${formatExchangeDate(seconds * 1000).slice(0, -1)}.${String(ms).padStart(3, '0')}${finer}`;
        const instant = seconds * 1000 + ms;
        expect(parseExchangeDate(text)).toBe(instant);
        expect(parseExchangeDate(text, true)).toBe(/[1-9]/.test(finer) ? instant + 1 : instant);
      }),
    );
  });
});
