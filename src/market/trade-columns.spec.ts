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

  it('holds a list read whole in columns of its size, and grows them by a quarter', () => {
    const trades = Array.from({ length: 1000 }, (_, i) => trade(String(i + 1), i, '1.5', '2'));
    const columns = TradeColumns.of(trades);
    expect(columns.toArray()).toEqual(trades);
    expect(capacity(columns)).toBe(1000);
    columns.push(trade('1001', 1000, '1.5', '2'));
    expect(capacity(columns)).toBe(1252);
    // A window sliding a trade in and a trade out keeps within a quarter over what it holds.
    for (let i = 1001; i < 20_000; i++) {
      columns.push(trade(String(i + 1), i, '1.5', '2'));
      columns.dropOldest(1);
      expect(capacity(columns)).toBeLessThanOrEqual(Math.ceil(1.25 * (columns.length + 1)));
    }
  });

  it('gives slices that keep showing what they showed, whatever the columns do next', () => {
    const trades = Array.from({ length: 20 }, (_, i) =>
      trade(String(i + 1), i, `${i}.5`, i === 3 ? '1e-7' : '0.25'),
    );
    const columns = TradeColumns.of(trades);
    const whole = columns.slice();
    const middle = columns.slice(2, 5);
    expect(middle.length).toBe(3);
    expect(middle.toArray()).toEqual(trades.slice(2, 5));
    expect(middle.idAt(0)).toBe('3');
    expect(middle.amountAt(1)).toBe('1e-7');
    expect(middle.amountUnitsAt(1)).toBeNaN();
    expect(middle.priceUnitsAt(0)).toBe(25);
    expect(middle.priceScaleAt(0)).toBe(1);
    for (let i = 20; i < 100; i++) columns.push(trade(String(i + 1), i, '9', '9'));
    columns.dropOldest(50);
    expect(whole.toArray()).toEqual(trades);
    expect(middle.toArray()).toEqual(trades.slice(2, 5));
    expect(columns.slice(-5, 2).length).toBe(2);
    expect(columns.slice(40, 99).length).toBe(10);
    columns.clear();
    expect(whole.toArray()).toEqual(trades);
  });
});

/** How many trades the columns have room for. */
function capacity(columns: TradeColumns): number {
  return (columns as unknown as { ids: Float64Array }).ids.length;
}
