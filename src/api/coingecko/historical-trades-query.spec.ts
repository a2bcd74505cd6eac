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

function code(query: Record<string, unknown>): string {
  try {
    readHistoricalTradesQuery(query);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    expect(error.status).toBe(400);
    return error.code;
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

  it.each([
    [{ type: 'all' }, 'invalid_type'],
    [{ type: ['buy', 'sell'] }, 'invalid_type'],
    [{ limit: '-1' }, 'invalid_limit'],
    [{ limit: '1.5' }, 'invalid_limit'],
    [{ start_time: '1e12' }, 'invalid_start_time'],
    [{ end_time: '2024-05-01' }, 'invalid_end_time'],
    [{ start_time: String(T + 1), end_time: String(T) }, 'invalid_time_range'],
  ])('refuses %j with %s', (query, expected) => {
    expect(code(query)).toBe(expected);
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
