import { ApiError } from '../http/api-error';
import { TradeFigures } from '../views/trade-figures';
import { readHistoricalTradesQuery, selectHistoricalTrades } from './historical-trades-query';

const T = 1_700_000_000_000;

function trade(id: number, time: number, side: 'buy' | 'sell'): TradeFigures {
  return { id: String(id), price: '1.00', baseVolume: '2.00', quoteVolume: '2.00', time, side };
}

/** Newest first, as the 24-hour window is published. */
const TRADES = [
  trade(6, T + 5000, 'sell'),
  trade(5, T + 4000, 'buy'),
  trade(4, T + 3000, 'buy'),
  trade(3, T + 2000, 'sell'),
  trade(2, T + 1000, 'buy'),
  trade(1, T, 'sell'),
];

const ids = (trades: readonly TradeFigures[]) => trades.map((t) => Number(t.id));

/** The 400 a query gets, as `code: message`. */
function refusal(query: Record<string, unknown>): string {
  try {
    readHistoricalTradesQuery(query);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    expect(error.status).toBe(400);
    return `${error.code}: ${error.message}`;
  }
  throw new Error('expected a 400');
}

describe('readHistoricalTradesQuery', () => {
  it('defaults to every trade of both sides', () => {
    expect(readHistoricalTradesQuery({})).toEqual({
      type: undefined,
      limit: 0,
      from: 0,
      to: Number.MAX_SAFE_INTEGER,
    });
  });

  it('reads milliseconds as they are and seconds as their whole second', () => {
    expect(readHistoricalTradesQuery({ start_time: String(T), end_time: String(T + 1) })).toMatchObject({
      from: T,
      to: T + 1,
    });
    expect(readHistoricalTradesQuery({ start_time: '1700000000', end_time: '1700000001' })).toMatchObject({
      from: T,
      to: T + 1999,
    });
  });

  it('takes type in any letter case', () => {
    expect(readHistoricalTradesQuery({ type: 'SELL' }).type).toBe('sell');
  });

  it('reads empty values as not given', () => {
    expect(readHistoricalTradesQuery({ type: '', limit: '', start_time: '', end_time: '' })).toEqual(
      readHistoricalTradesQuery({}),
    );
  });

  it.each([
    [{ type: 'all' }, 'invalid_type: type must be buy or sell, got "all"'],
    [{ type: ['buy', 'sell'] }, 'invalid_type: type must be given once, got 2 values'],
    [{ limit: '-1' }, 'invalid_limit: limit must not be negative, got "-1"'],
    [{ limit: '1.5' }, 'invalid_limit: limit must be a non-negative integer, digits only, got "1.5"'],
    [{ limit: '1000001' }, 'invalid_limit: limit must be at most 1000000, got "1000001"'],
    [
      { start_time: '1e12' },
      'invalid_start_time: start_time must be a Unix time in milliseconds (or seconds), digits only, got "1e12"',
    ],
    [
      { end_time: '2024-05-01' },
      'invalid_end_time: end_time must be a Unix time in milliseconds (or seconds), digits only, got "2024-05-01"',
    ],
    [
      { end_time: '99999999999999999999' },
      'invalid_end_time: end_time must be at most 253402300799999, got "99999999999999999999"',
    ],
    [
      { start_time: String(T + 1), end_time: String(T) },
      `invalid_time_range: start_time must not be after end_time, got "${T + 1}" and "${T}"`,
    ],
  ])('refuses %j with %s', (query, expected) => {
    expect(refusal(query)).toBe(expected);
  });
});

describe('selectHistoricalTrades', () => {
  it('splits by taker side, newest first', () => {
    const all = selectHistoricalTrades(TRADES, readHistoricalTradesQuery({}));
    expect(ids(all.buy)).toEqual([5, 4, 2]);
    expect(ids(all.sell)).toEqual([6, 3, 1]);
  });

  it('keeps the newest `limit` matching trades, after the type and time filters', () => {
    const newest = selectHistoricalTrades(TRADES, readHistoricalTradesQuery({ limit: '3' }));
    expect([ids(newest.buy), ids(newest.sell)]).toEqual([[5, 4], [6]]);
    const buys = selectHistoricalTrades(TRADES, readHistoricalTradesQuery({ type: 'buy', limit: '2' }));
    expect([ids(buys.buy), ids(buys.sell)]).toEqual([[5, 4], []]);
  });

  it('includes both bounds of the time range', () => {
    const range = readHistoricalTradesQuery({ start_time: String(T + 1000), end_time: String(T + 3000) });
    const selected = selectHistoricalTrades(TRADES, range);
    expect([ids(selected.buy), ids(selected.sell)]).toEqual([[4, 2], [3]]);
  });
});
