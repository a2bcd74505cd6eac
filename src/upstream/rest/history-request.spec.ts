import { historyQuery } from './history-request';

const start = Date.parse('2024-03-14T09:00:00Z');

describe('historyQuery', () => {
  it('writes the dates in the exchange format, the interval as type and count', () => {
    expect(historyQuery({ start, end: start + 3_600_000, interval: '1m', count: 60 })).toEqual({
      startDate: '2024-03-14T09:00:00',
      endDate: '2024-03-14T10:00:00',
      type: '1m',
      count: '60',
    });
  });

  it('widens fractions of a second outwards so the whole range is asked for, and defaults count to 1000', () => {
    expect(historyQuery({ start: start + 1500, end: start + 2001, interval: '1h' })).toEqual({
      startDate: '2024-03-14T09:00:01',
      endDate: '2024-03-14T09:00:03',
      type: '1h',
      count: '1000',
    });
  });

  it.each([
    [{ start, end: start, interval: '1m' }],
    [{ start: NaN, end: start, interval: '1m' }],
    [{ start, end: start + 1, interval: '4h' }],
    [{ start, end: start + 1, interval: '1m', count: 0 }],
    [{ start, end: start + 1, interval: '1m', count: 1001 }],
    [{ start, end: start + 1, interval: '1m', count: 2.5 }],
  ])('rejects %p', (request) => {
    expect(() => historyQuery(request as never)).toThrow(RangeError);
  });
});
