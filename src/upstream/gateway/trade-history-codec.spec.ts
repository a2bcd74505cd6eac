import { parseExactJson } from '../exact-json';
import { decodeTradeHistory, tradesFromExecutions } from './trade-history-codec';

const NAMES = new Map([[1, 'btc_usdt']]);

function record(fields: Record<string, string | number>): string {
  const base: Record<string, string | number> = {
    OMSId: 1,
    InstrumentId: 1,
    Quantity: '0.50000000',
    Price: '30000.10',
    TradeTimeMS: 1700000000123,
    TradeTime: 638355744001230000,
    ...fields,
  };
  return `{${Object.entries(base)
    .map(([key, value]) => `"${key}":${typeof value === 'number' ? value : JSON.stringify(value)}`)
    .join(',')}}`;
}

function decode(...records: string[]) {
  return tradesFromExecutions(decodeTradeHistory(parseExactJson(`[${records.join(',')}]`)), NAMES);
}

describe('GetTradesHistory codec', () => {
  it("gives one trade per TradeId with the taker's side, whichever record comes first", () => {
    const maker = record({ ExecutionId: 20, TradeId: 10, Side: 'Buy', MakerTaker: 'Maker' });
    const taker = record({ ExecutionId: 21, TradeId: 10, Side: 'Sell', MakerTaker: 'Taker' });
    const expected = [
      {
        id: '10',
        instrument: 'btc_usdt',
        price: '30000.1',
        amount: '0.5',
        side: 'sell',
        time: 1700000000123,
      },
    ];
    expect(decode(maker, taker)).toEqual(expected);
    expect(decode(taker, maker)).toEqual(expected);
  });

  it("takes the opposite of the maker's side when only the maker's record is there", () => {
    expect(decode(record({ TradeId: 11, Side: 'Sell', MakerTaker: 'Maker' }))[0].side).toBe('buy');
    expect(decode(record({ TradeId: 12, Sides: 'Buy', MakerTaker: 'maker' }))[0].side).toBe('sell');
  });

  it('keeps the order of first appearance and exact decimals', () => {
    const trades = decode(
      record({ TradeId: 3, Side: 'Buy', MakerTaker: 'Taker', Quantity: '123456789.123456789012345678' }),
      record({ TradeId: 2, Side: 'Sell', MakerTaker: 'Taker' }),
      record({ TradeId: 3, Side: 'Sell', MakerTaker: 'Maker', Quantity: '123456789.123456789012345678' }),
    );
    expect(trades.map((trade) => [trade.id, trade.side, trade.amount])).toEqual([
      ['3', 'buy', '123456789.123456789012345678'],
      ['2', 'sell', '0.5'],
    ]);
  });

  it('reads TradeTimeMS given as .NET ticks, as the spec describes it, and falls back to TradeTime', () => {
    expect(decode(record({ TradeId: 1, Side: 'Buy', TradeTimeMS: 638355744001230000 }))[0].time).toBe(
      1699977600123,
    );
    const withoutMs = `{"TradeId":1,"InstrumentId":1,"Side":"Buy","Quantity":1,"Price":2,"TradeTime":638355744001230000}`;
    expect(decode(withoutMs)[0].time).toBe(1699977600123);
  });

  it('keys executions by ExecutionId, else by trade and role', () => {
    const executions = decodeTradeHistory(
      parseExactJson(
        `[${record({ ExecutionId: 7, TradeId: 3, Side: 'Buy' })},${record({ TradeId: 3, Side: 'Sell', MakerTaker: 'Maker' })}]`,
      ),
    );
    expect(executions.map((execution) => execution.key)).toEqual(['7', '3:maker']);
  });

  it('leaves out trades of unnamed instruments and rejects malformed records', () => {
    expect(decode(record({ TradeId: 1, Side: 'Buy', InstrumentId: 9 }))).toEqual([]);
    expect(() => decode(record({ TradeId: 1, Side: 'Unknown' }))).toThrow(
      'malformed GetTradesHistory reply: [0].Side: expected Buy, Sell, 0 or 1, got "Unknown"',
    );
    expect(() => decode(record({ TradeId: 1, Side: 'Buy', MakerTaker: 'Both' }))).toThrow('[0].MakerTaker');
    expect(() => decode(record({ Side: 'Buy' }))).toThrow('[0].TradeId');
    expect(() => decodeTradeHistory(parseExactJson('{"result":false}'))).toThrow('expected an array');
  });
});
