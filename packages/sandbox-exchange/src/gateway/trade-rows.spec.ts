import { Side } from '../engine/side';
import { toJson } from '../http/json-number';
import { parseExactJson } from '../wire/exact-json';
import { emptyMarket } from './testing/market-fixture';
import { tradeRow } from './trade-rows';

describe('public trade rows', () => {
  it('writes a trade as the positional array, the buy order first', () => {
    const { market, limit } = emptyMarket();
    const sellOrder = limit(2, Side.Sell, 6_500_012n, 40_000_000n, 1_000);
    const buyOrder = limit(3, Side.Buy, 6_500_012n, 12_345_678n, 2_000);
    const [trade] = market.tradeLog.newest(1);
    expect(parseExactJson(toJson(tradeRow(trade, market.spec)))).toEqual([
      String(trade.id),
      '1',
      '0.12345678',
      '65000.12',
      String(buyOrder),
      String(sellOrder),
      '2000',
      '0',
      '0',
      false,
      '0',
    ]);
  });

  it('puts the resting buy order first when a seller takes', () => {
    const { market, limit } = emptyMarket();
    const buyOrder = limit(2, Side.Buy, 6_500_000n, 40_000_000n, 1_000);
    limit(2, Side.Buy, 6_400_000n, 40_000_000n, 1_000);
    const sellOrder = limit(3, Side.Sell, 6_400_000n, 50_000_000n, 3_000);
    const rows = market.tradeLog
      .newest(2)
      .reverse()
      .map((trade) => parseExactJson(toJson(tradeRow(trade, market.spec))) as unknown[]);
    expect(rows.map((row) => [row[3], row[4], row[5], row[7], row[8]])).toEqual([
      ['65000', String(buyOrder), String(sellOrder), '0', '1'],
      ['64000', String(buyOrder + 1), String(sellOrder), '2', '1'],
    ]);
  });
});
