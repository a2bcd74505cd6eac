import { formatQueryDate, normalizeExchangeDate, parseExchangeDate } from './exchange-date';

describe('exchange dates', () => {
  it('adds the missing Z and keeps the fraction as sent', () => {
    expect(normalizeExchangeDate('2019-11-14T16:18:49.253354')).toBe('2019-11-14T16:18:49.253354Z');
    expect(normalizeExchangeDate('2021-05-06T07:08:09Z')).toBe('2021-05-06T07:08:09Z');
  });

  it('rejects what is no date or no real instant', () => {
    for (const text of [
      '2024-02-30T00:00:00',
      '2024-01-01T24:00:00',
      '2024-01-01 10:00:00',
      '2024-01-01T10:00:00+02:00',
      '',
    ]) {
      expect(normalizeExchangeDate(text)).toBeUndefined();
      expect(parseExchangeDate(text)).toBeUndefined();
    }
  });

  it('parses to Unix milliseconds as UTC with or without Z, dropping sub-millisecond digits', () => {
    expect(parseExchangeDate('2019-03-13T09:00:00Z')).toBe(Date.UTC(2019, 2, 13, 9));
    expect(parseExchangeDate('2019-03-13T09:00:00')).toBe(Date.UTC(2019, 2, 13, 9));
    expect(parseExchangeDate('2019-11-14T16:18:49.253354')).toBe(Date.UTC(2019, 10, 14, 16, 18, 49, 253));
    expect(parseExchangeDate('2019-11-14T16:18:49.5Z')).toBe(Date.UTC(2019, 10, 14, 16, 18, 49, 500));
  });

  it('formats query dates in whole seconds without Z', () => {
    expect(formatQueryDate(Date.UTC(2024, 2, 14, 9, 5, 7))).toBe('2024-03-14T09:05:07');
  });
});
