import { Trade } from '../trade';
import { TradeColumns } from '../trade-columns';
import { MinuteBarMemo } from './minute-bar-memo';
import { randomTrades } from './testing/random-trades';
import { tradeMinuteBars } from './trade-minute-bars';

const MINUTE = 60_000;
const T = Date.UTC(2024, 4, 1, 10);

describe('MinuteBarMemo', () => {
  const trades = randomTrades(5, 5_000, T, T + 6 * 3_600_000);

  it('gives the bars tradeMinuteBars gives, read again or not', () => {
    const memo = new MinuteBarMemo();
    const rows = TradeColumns.of(trades);
    for (const [from, to] of [
      [T, T + 6 * 3_600_000],
      [T + 30 * MINUTE, T + 90 * MINUTE],
      [T, T + 6 * 3_600_000],
    ])
      expect(memo.minuteBars(rows, from, to)).toEqual(tradeMinuteBars(rows, from, to));
  });

  it('builds a minute again when its trades changed: one more, a late one, one replaced', () => {
    const memo = new MinuteBarMemo();
    const range = [T, T + 6 * 3_600_000] as const;
    memo.minuteBars(TradeColumns.of(trades), ...range);
    const minute = trades[100].time - (trades[100].time % MINUTE);
    const late: Trade = { ...trades[100], id: '99999999', time: minute, price: '0.0001' };
    const replaced = trades.map((one, index) => (index === 2_000 ? { ...one, price: `${one.price}1` } : one));
    for (const changed of [
      [...trades, { ...trades[0], id: '88888888', time: T + 6 * 3_600_000 - 1, price: '777' }],
      [...trades, late].sort((a, b) => a.time - b.time),
      replaced,
    ]) {
      const rows = TradeColumns.of(changed);
      expect(memo.minuteBars(rows, ...range)).toEqual(tradeMinuteBars(rows, ...range));
    }
  });

  it('forgets minutes before a time', () => {
    const memo = new MinuteBarMemo();
    const bars = memo.minuteBars(TradeColumns.of(trades), T, T + 6 * 3_600_000);
    memo.dropBefore(bars[10].start);
    expect(memo.size).toBe(bars.length - 10);
  });
});
