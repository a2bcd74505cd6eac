import { Trade } from '../../market/trade';
import { TradeTail } from '../../store/state-store';
import { readTail, startCursor } from './trade-cursor';

function trade(id: number, time: number): Trade {
  return { id: String(id), instrument: 'btc_usdt', price: '100', amount: '1', side: 'buy', time };
}

function tail(...trades: Trade[]): TradeTail {
  return { trades, count: trades.length + 10, oldest: trade(0, 0) };
}

const ids = (trades: Trade[]) => trades.map((each) => Number(each.id));

describe('readTail', () => {
  it('starts after every trade stored at the start time', () => {
    const first = readTail(startCursor(10), tail(trade(1, 10), trade(2, 11), trade(3, 11)));
    expect(ids(first.fresh)).toEqual([2, 3]);
    expect(first.broken).toBe(false);
    expect(first.cursor).toEqual({ time: 11, ids: new Set(['2', '3']), newestId: '3' });
  });

  it('gives each trade once, also a later one at the time of the newest sent', () => {
    const first = readTail(startCursor(10), tail(trade(2, 11)));
    const second = readTail(first.cursor, tail(trade(2, 11), trade(3, 11), trade(4, 12)));
    expect(ids(second.fresh)).toEqual([3, 4]);
    const third = readTail(second.cursor, tail(trade(4, 12)));
    expect(third.fresh).toEqual([]);
    expect(third.cursor).toBe(second.cursor);
    expect(third.broken).toBe(false);
  });

  it('says the channel broke when the last trade sent is gone, and still sends only what is new', () => {
    const first = readTail(startCursor(10), tail(trade(2, 11)));
    const emptied = readTail(first.cursor, tail());
    expect(emptied).toEqual({ fresh: [], cursor: first.cursor, broken: true });
    const refilled = readTail(first.cursor, tail(trade(2, 11), trade(5, 13)));
    expect(ids(refilled.fresh)).toEqual([5]);
    expect(refilled.broken).toBe(false);
  });
});
