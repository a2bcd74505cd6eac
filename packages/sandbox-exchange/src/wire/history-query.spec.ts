import fc from 'fast-check';
import { CANDLE_INTERVALS } from './candle-interval';
import { readHistoryQuery } from './history-query';

const VALID = { startDate: '2019-03-13T09:00:00', endDate: '2019-03-13T11:00:00', type: '1h' };

function problems(query: Record<string, unknown>): readonly string[] {
  const reading = readHistoryQuery(query);
  if (!('problems' in reading)) throw new Error(`expected problems, read ${JSON.stringify(reading.query)}`);
  return reading.problems;
}

describe('readHistoryQuery', () => {
  it('reads the query of the exchange sample, dates as UTC, count defaulting to 1000', () => {
    expect(readHistoryQuery(VALID)).toEqual({
      query: { from: Date.UTC(2019, 2, 13, 9), to: Date.UTC(2019, 2, 13, 11), interval: '1h', count: 1000 },
    });
  });

  it('takes a count from 1 to 1000, and an empty one as absent', () => {
    for (const [text, count] of [
      ['1', 1],
      ['25', 25],
      ['1000', 1000],
      ['0001000', 1000],
      ['', 1000],
    ] as const)
      expect(readHistoryQuery({ ...VALID, count: text })).toEqual({
        query: expect.objectContaining({ count }),
      });
  });

  it.each(CANDLE_INTERVALS)('takes type %s', (type) => {
    expect(readHistoryQuery({ ...VALID, type })).toEqual({
      query: expect.objectContaining({ interval: type }),
    });
  });

  it('takes dates with a fraction or a Z, a finer fraction counting as the next millisecond', () => {
    const reading = readHistoryQuery({
      ...VALID,
      startDate: '2019-03-13T09:00:00.0000001',
      endDate: '2019-03-13T11:00:00Z',
    });
    expect(reading).toEqual({ query: expect.objectContaining({ from: Date.UTC(2019, 2, 13, 9, 0, 0, 1) }) });
  });

  it('names every missing parameter at once, in order', () => {
    expect(problems({})).toEqual([
      'startDate: is required and must be a UTC date YYYY-MM-DDThh:mm:ss',
      'endDate: is required and must be a UTC date YYYY-MM-DDThh:mm:ss',
      'type: is required and must be one of 1m, 5m, 15m, 30m, 1h, 12h, 1d, 1w, 1M',
    ]);
    expect(problems({ startDate: '', endDate: '', type: '' })).toEqual(problems({}));
  });

  it.each<[Record<string, unknown>, string]>([
    [{ startDate: '2019-03-13' }, 'startDate: must be a UTC date YYYY-MM-DDThh:mm:ss, got "2019-03-13"'],
    [
      { endDate: '2024-02-30T00:00:00' },
      'endDate: must be a UTC date YYYY-MM-DDThh:mm:ss, got "2024-02-30T00:00:00"',
    ],
    [{ type: '4h' }, 'type: must be one of 1m, 5m, 15m, 30m, 1h, 12h, 1d, 1w, 1M, got "4h"'],
    [{ type: '1H' }, 'type: must be one of 1m, 5m, 15m, 30m, 1h, 12h, 1d, 1w, 1M, got "1H"'],
    [{ count: '0' }, 'count: must be an integer from 1 to 1000, got "0"'],
    [{ count: '1001' }, 'count: must be an integer from 1 to 1000, got "1001"'],
    [{ count: '00001000' }, 'count: must be an integer from 1 to 1000, got "00001000"'],
    [{ count: '10.5' }, 'count: must be an integer from 1 to 1000, got "10.5"'],
    [{ count: '-3' }, 'count: must be an integer from 1 to 1000, got "-3"'],
    [{ count: '1e3' }, 'count: must be an integer from 1 to 1000, got "1e3"'],
    [{ count: ' 5' }, 'count: must be an integer from 1 to 1000, got " 5"'],
    [{ type: ['1m', '5m'] }, 'type: must be given once'],
    [{ count: ['1', '2'] }, 'count: must be given once'],
    [{ startDate: [VALID.startDate, VALID.startDate] }, 'startDate: must be given once'],
    [{ endDate: VALID.startDate }, 'endDate: must be later than startDate'],
    [{ startDate: '2019-03-14T00:00:00' }, 'endDate: must be later than startDate'],
  ])('answers %p with one problem', (override, problem) => {
    expect(problems({ ...VALID, ...override })).toEqual([problem]);
  });

  it('quotes a bad value as JSON', () => {
    expect(problems({ ...VALID, type: 'a"b\\' })).toEqual([
      'type: must be one of 1m, 5m, 15m, 30m, 1h, 12h, 1d, 1w, 1M, got "a\\"b\\\\"',
    ]);
  });

  it('names each bad parameter once, and reads only queries within the rules', () => {
    const value = fc.oneof(
      fc.constant(undefined),
      fc.constant(''),
      fc.string(),
      fc.array(fc.string(), { minLength: 2, maxLength: 2 }),
    );
    const parameter = (good: fc.Arbitrary<string>): fc.Arbitrary<unknown> => fc.oneof(good, value);
    const date = fc
      .integer({ min: 0, max: 4_102_444_800_000 })
      .map((ms) => new Date(ms).toISOString().slice(0, 19));
    fc.assert(
      fc.property(
        fc.record({
          startDate: parameter(date),
          endDate: parameter(date),
          type: parameter(fc.constantFrom(...CANDLE_INTERVALS)),
          count: parameter(fc.integer({ min: 1, max: 1000 }).map(String)),
        }),
        (query) => {
          const reading = readHistoryQuery(query);
          if ('query' in reading) {
            expect(reading.query.from).toBeLessThan(reading.query.to);
            expect(reading.query.count).toBeGreaterThanOrEqual(1);
            expect(reading.query.count).toBeLessThanOrEqual(1000);
          } else {
            const named = reading.problems.map((problem) => problem.slice(0, problem.indexOf(':')));
            expect(named.length).toBeGreaterThan(0);
            expect(new Set(named).size).toBe(named.length);
            for (const name of named) expect(['startDate', 'endDate', 'type', 'count']).toContain(name);
          }
        },
      ),
    );
  });
});
