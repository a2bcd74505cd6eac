import {
  formatExchangeDate,
  formatQueryDate,
  normalizeExchangeDate,
  parseExchangeDate,
} from './exchange-date';

describe('parseExchangeDate', () => {
  it('reads the documented format as UTC', () => {
    expect(parseExchangeDate('2019-03-13T09:00:00')).toBe(Date.UTC(2019, 2, 13, 9, 0, 0));
  });

  it('tolerates a fraction and a trailing Z', () => {
    expect(parseExchangeDate('2019-03-13T09:00:00Z')).toBe(Date.UTC(2019, 2, 13, 9));
    expect(parseExchangeDate('2019-03-13T09:00:00.5')).toBe(Date.UTC(2019, 2, 13, 9, 0, 0, 500));
    expect(parseExchangeDate('2019-11-14T16:18:49.253354')).toBe(Date.UTC(2019, 10, 14, 16, 18, 49, 253));
    expect(parseExchangeDate('2019-03-13T09:00:00.123Z')).toBe(Date.UTC(2019, 2, 13, 9, 0, 0, 123));
  });

  it('drops sub-millisecond fractions of reported instants, and rounds range bounds up', () => {
    expect(parseExchangeDate('2020-01-01T00:00:00.0000001')).toBe(Date.UTC(2020, 0, 1));
    expect(parseExchangeDate('2020-01-01T00:00:00.0000001', 'ceil')).toBe(Date.UTC(2020, 0, 1) + 1);
    expect(parseExchangeDate('2020-01-01T00:00:00.001000000', 'ceil')).toBe(Date.UTC(2020, 0, 1) + 1);
    expect(parseExchangeDate('2020-01-01T00:00:00.999999999', 'ceil')).toBe(Date.UTC(2020, 0, 1) + 1000);
    expect(parseExchangeDate('2020-01-01T00:00:00.999999999')).toBe(Date.UTC(2020, 0, 1) + 999);
  });

  it('handles leap days and years before 100', () => {
    expect(parseExchangeDate('2024-02-29T23:59:59')).toBe(Date.UTC(2024, 1, 29, 23, 59, 59));
    expect(parseExchangeDate('0001-01-01T00:00:00')).toBe(-62_135_596_800_000);
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
    '2019-13-01T00:00:00',
    '2019-00-01T00:00:00',
    '2023-02-29T00:00:00',
    '2019-04-31T00:00:00',
    '2019-03-13T24:00:00',
    '2019-03-13T23:60:00',
    '2019-03-13T23:59:60',
    '1552467600000',
    ' 2019-03-13T09:00:00',
  ])('rejects %p', (text) => {
    expect(parseExchangeDate(text)).toBeUndefined();
  });
});

describe('formatExchangeDate', () => {
  it('writes whole seconds without a fraction and a trailing Z', () => {
    expect(formatExchangeDate(Date.UTC(2019, 2, 13, 9))).toBe('2019-03-13T09:00:00Z');
  });

  it('keeps milliseconds when there are any', () => {
    expect(formatExchangeDate(Date.UTC(2019, 2, 13, 9, 0, 0, 5))).toBe('2019-03-13T09:00:00.005Z');
  });

  it('reads back what it writes', () => {
    for (const ms of [0, 1_700_000_000_000, 1_700_000_000_001]) {
      expect(parseExchangeDate(formatExchangeDate(ms))).toBe(ms);
    }
  });
});

describe('normalizeExchangeDate', () => {
  it('adds the missing Z and keeps the fraction as sent', () => {
    expect(normalizeExchangeDate('2019-11-14T16:18:49.253354')).toBe('2019-11-14T16:18:49.253354Z');
    expect(normalizeExchangeDate('2021-05-06T07:08:09Z')).toBe('2021-05-06T07:08:09Z');
    expect(normalizeExchangeDate('2024-02-30T00:00:00')).toBeUndefined();
  });
});

describe('formatQueryDate', () => {
  it('formats query dates in whole seconds without Z', () => {
    expect(formatQueryDate(Date.UTC(2024, 2, 14, 9, 5, 7, 999))).toBe('2024-03-14T09:05:07');
  });
});
