import { Trade } from './trade';
import { TradeColumns } from './trade-columns';

function trade(id: string, time: number, price: string, amount: string): Trade {
  return { id, instrument: 'btc_usdt', price, amount, side: Number(time) % 2 ? 'sell' : 'buy', time };
}

describe('TradeColumns', () => {
  it('gives back every trade with exactly its texts, also those no number holds', () => {
    const trades = [
      trade('1', 1, '27000.5', '0.25'),
      trade('12345678901234', 2, '0.000000000000000001', '123456789.123456789'),
      trade('99999999999999999999', 3, '100', '0.40'),
      trade('007', 4, '1e-7', '.5'),
      trade('42', 5, '0.0025', '3'),
    ];
    const columns = new TradeColumns();
    for (const item of trades) columns.push(item);
    expect(columns.toArray()).toEqual(trades);
    expect(columns.idNumberAt(0)).toBe(1);
    expect(columns.idNumberAt(2)).toBeNaN();
  });

  it('drops the oldest and keeps the rest in place across growth and compaction', () => {
    const columns = new TradeColumns();
    const all: Trade[] = [];
    for (let i = 0; i < 5000; i++) {
      const item = trade(String(i + 1), i, `${i}.${i % 7}`, i % 3 ? '1' : '0.000000000000000001');
      all.push(item);
      columns.push(item);
      if (i % 10 === 9) columns.dropOldest(7);
    }
    const held = all.slice(all.length - columns.length);
    expect(columns.length).toBe(5000 - 500 * 7);
    expect(columns.toArray()).toEqual(held);
    columns.dropOldest(columns.length);
    expect(columns.length).toBe(0);
    expect(columns.toArray()).toEqual([]);
  });
});
