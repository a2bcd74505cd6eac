import { TradeColumns } from '../trade-columns';
import { tradeCandles } from '../trade-candles';
import { randomTrades } from './testing/random-trades';
import { firstTradeAtOrAfter, tradeMinuteBars } from './trade-minute-bars';

const MINUTE = 60_000;
const T = Date.UTC(2024, 4, 1, 10);

function trade(id: number, time: number, price: string, amount: string) {
  return { id: String(id), instrument: 'btc_usdt', price, amount, side: 'buy' as const, time };
}

describe('tradeMinuteBars', () => {
  it('builds a bar for each minute of the range that holds a trade, and none for the others', () => {
    const rows = TradeColumns.of([
      trade(1, T - 1, '9', '1'),
      trade(2, T, '10', '0.5'),
      trade(3, T + 10, '12.25', '0.25'),
      trade(4, T + MINUTE - 1, '9.5', '1.000000000000000001'),
      trade(5, T + 3 * MINUTE, '11', '2'),
      trade(6, T + 4 * MINUTE, '13', '1'),
    ]);
    expect(tradeMinuteBars(rows, T, T + 4 * MINUTE)).toEqual([
      {
        start: T,
        end: T + MINUTE,
        open: '10',
        high: '12.25',
        low: '9.5',
        close: '9.5',
        volume: '1.750000000000000001',
        quoteVolume: '17.5625000000000000095',
      },
      {
        start: T + 3 * MINUTE,
        end: T + 4 * MINUTE,
        open: '11',
        high: '11',
        low: '11',
        close: '11',
        volume: '2',
        quoteVolume: '22',
      },
    ]);
    expect(tradeMinuteBars(rows, T + MINUTE, T + 3 * MINUTE)).toEqual([]);
  });

  it('equals the bars built from the trades themselves, for any range of minutes', () => {
    const trades = randomTrades(7, 3_000, T, T + 6 * 3_600_000);
    const rows = TradeColumns.of(trades);
    for (const [from, to] of [
      [T, T + 6 * 3_600_000],
      [T + 17 * MINUTE, T + 203 * MINUTE],
      [T + 300 * MINUTE, T + 301 * MINUTE],
    ]) {
      const inRange = trades.filter((one) => one.time >= from && one.time < to);
      expect(tradeMinuteBars(rows, from, to)).toEqual(tradeCandles(inRange, '1m'));
    }
  });

  it('finds the first trade at or after a time among trades of the same millisecond', () => {
    const rows = TradeColumns.of([
      trade(1, T, '1', '1'),
      trade(2, T + 5, '1', '1'),
      trade(3, T + 5, '1', '1'),
    ]);
    expect([T - 1, T, T + 1, T + 5, T + 6].map((time) => firstTradeAtOrAfter(rows, time))).toEqual([
      0, 0, 1, 1, 3,
    ]);
  });
});
