import { HttpException } from '@nestjs/common';
import { CANDLE_INTERVALS } from '../wire/candle-interval';
import { parseHistoryQuery } from './history-query';

const VALID = { startDate: '2024-05-01T00:00:00', endDate: '2024-05-02T00:00:00', type: '1h' };

function messages(query: Record<string, unknown>): string[] {
  try {
    parseHistoryQuery(query);
  } catch (error) {
    if (!(error instanceof HttpException)) throw error;
    expect(error.getStatus()).toBe(400);
    return (error.getResponse() as { errors: { message: string }[] }).errors.map((entry) => entry.message);
  }
  throw new Error('expected a 400');
}

describe('parseHistoryQuery', () => {
  it('reads a full query, dates as UTC', () => {
    expect(parseHistoryQuery({ ...VALID, count: '25' })).toEqual({
      from: Date.UTC(2024, 4, 1),
      to: Date.UTC(2024, 4, 2),
      interval: '1h',
      count: 25,
    });
  });

  it('defaults count to 1000 and accepts the bounds 1 and 1000', () => {
    expect(parseHistoryQuery(VALID).count).toBe(1000);
    expect(parseHistoryQuery({ ...VALID, count: '1' }).count).toBe(1);
    expect(parseHistoryQuery({ ...VALID, count: '1000' }).count).toBe(1000);
  });

  it.each(CANDLE_INTERVALS)('accepts type %s', (type) => {
    expect(parseHistoryQuery({ ...VALID, type }).interval).toBe(type);
  });

  it('names every missing parameter at once', () => {
    expect(messages({})).toEqual([
      'startDate: is required and must be a UTC date YYYY-MM-DDThh:mm:ss',
      'endDate: is required and must be a UTC date YYYY-MM-DDThh:mm:ss',
      'type: is required and must be one of 1m, 5m, 15m, 30m, 1h, 12h, 1d, 1w, 1M',
    ]);
  });

  it.each([
    [{ startDate: '2024-05-01' }, /^startDate: must be a UTC date/],
    [{ endDate: '2024-02-30T00:00:00' }, /^endDate: must be a UTC date/],
    [{ type: '4h' }, /^type: must be one of .*got "4h"/],
    [{ type: '1H' }, /^type: must be one of/],
    [{ count: '0' }, /^count: must be an integer from 1 to 1000, got "0"/],
    [{ count: '1001' }, /^count: must be an integer from 1 to 1000/],
    [{ count: '10.5' }, /^count: /],
    [{ count: '-3' }, /^count: /],
    [{ count: 'ten' }, /^count: /],
    [{ count: '1e3' }, /^count: /],
    [{ type: ['1m', '5m'] }, /^type: must be given once/],
    [{ endDate: VALID.startDate }, /^endDate: must be later than startDate/],
    [{ startDate: '2024-05-03T00:00:00' }, /^endDate: must be later than startDate/],
  ])('answers 400 for %p', (override, expected) => {
    const problems = messages({ ...VALID, ...override });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(expected);
  });
});
