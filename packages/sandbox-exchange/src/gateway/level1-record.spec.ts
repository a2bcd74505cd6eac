import { Side } from '../engine/side';
import { toJson } from '../http/json-number';
import { parseExactJson } from '../wire/exact-json';
import { level1Key, level1Record } from './level1-record';
import { emptyMarket } from './testing/market-fixture';

const DAY = 86_400_000;
const NOON = Date.UTC(2025, 0, 2, 12);

function wire(value: unknown): Record<string, string> {
  return parseExactJson(toJson(value)) as Record<string, string>;
}

describe('level 1 record', () => {
  it('is all zeros for a market without book or trades', () => {
    const { market } = emptyMarket();
    expect(wire(level1Record(market, NOON))).toEqual({
      OMSId: '1',
      InstrumentId: '1',
      BestBid: '0',
      BestOffer: '0',
      LastTradedPx: '0',
      LastTradedQty: '0',
      LastTradeTime: '0',
      SessionOpen: '0',
      SessionHigh: '0',
      SessionLow: '0',
      SessionClose: '0',
      Volume: '0',
      CurrentDayVolume: '0',
      CurrentDayNumTrades: '0',
      CurrentDayPxChange: '0',
      Rolling24HrVolume: '0',
      Rolling24HrNumTrades: '0',
      Rolling24HrPxChange: '0',
      TimeStamp: String(NOON),
    });
  });

  it('reports the touch, the last trade, the UTC day and the rolling 24 hours', () => {
    const { market, limit } = emptyMarket();
    const trade = (price: bigint, amount: bigint, time: number) => {
      limit(2, Side.Sell, price, amount, time);
      limit(3, Side.Buy, price, amount, time);
    };
    trade(6_400_000n, 10_000_000n, NOON - DAY + 3_600_000); // yesterday 13:00: in the rolling window only
    trade(6_300_000n, 20_000_000n, NOON - 6 * 3_600_000); // today 06:00
    trade(6_600_000n, 5_000_000n, NOON - 3_600_000);
    trade(6_500_050n, 1n, NOON - 60_000);
    limit(4, Side.Buy, 6_499_000n, 1_000n, NOON);
    limit(5, Side.Sell, 6_501_000n, 1_000n, NOON);
    expect(wire(level1Record(market, NOON))).toEqual({
      OMSId: '1',
      InstrumentId: '1',
      BestBid: '64990',
      BestOffer: '65010',
      LastTradedPx: '65000.5',
      LastTradedQty: '0.00000001',
      LastTradeTime: String(NOON - 60_000),
      SessionOpen: '63000',
      SessionHigh: '66000',
      SessionLow: '63000',
      SessionClose: '65000.5',
      Volume: '0.25000001',
      CurrentDayVolume: '0.25000001',
      CurrentDayNumTrades: '3',
      CurrentDayPxChange: '2000.5',
      Rolling24HrVolume: '0.35000001',
      Rolling24HrNumTrades: '4',
      Rolling24HrPxChange: '1000.5',
      TimeStamp: String(NOON),
    });
  });

  it('keys what its events report: best bid, best offer and last trade', () => {
    const { market, limit } = emptyMarket();
    const keys = [level1Key(market)];
    limit(2, Side.Buy, 100n, 5n, 1);
    keys.push(level1Key(market));
    limit(2, Side.Buy, 90n, 5n, 1);
    expect(level1Key(market)).toBe(keys[1]);
    limit(2, Side.Sell, 110n, 5n, 1);
    keys.push(level1Key(market));
    limit(3, Side.Sell, 100n, 1n, 1);
    keys.push(level1Key(market));
    expect(new Set(keys).size).toBe(4);
  });
});
