import { parseExactJson } from '../exact-json';
import { decodeLevel1 } from './level1-codec';

const BTC = { instrumentId: 1, instrument: 'btc_usdt' };

describe('Level 1 codec', () => {
  it('reads the record with canonical decimals', () => {
    const payload = parseExactJson(
      '{"OMSId":1,"InstrumentId":1,"BestBid":30000.10,"BestOffer":30000.2000,"LastTradedPx":30000.15,' +
        '"LastTradedQty":0.0002140000000000000000000000,"LastTradeTime":1700000000123,"SessionOpen":29000,' +
        '"Volume":12.5,"CurrentDayVolume":12.5,"CurrentDayNumTrades":40,"Rolling24HrVolume":123456789.123456789012345678,' +
        '"Rolling24HrNumTrades":321,"Rolling24HrPxChange":-12.5,"TimeStamp":"1700000000999"}',
    );
    expect(decodeLevel1(payload, BTC, 5)).toEqual({
      instrument: 'btc_usdt',
      instrumentId: 1,
      bestBid: '30000.1',
      bestOffer: '30000.2',
      lastTradedPrice: '30000.15',
      lastTradedQuantity: '0.000214',
      lastTradeTime: 1700000000123,
      rolling24hVolume: '123456789.123456789012345678',
      rolling24hTradeCount: 321,
      time: 1700000000999,
    });
  });

  it('accepts camelCase keys, the Rolling24NumTrades spelling and a missing TimeStamp', () => {
    const payload = parseExactJson(
      '{"instrumentId":1,"bestBid":0,"bestOffer":0,"lastTradedPx":0,"lastTradedQty":0,"lastTradeTime":0,' +
        '"rolling24HrVolume":0,"Rolling24NumTrades":0}',
    );
    expect(decodeLevel1(payload, BTC, 77)).toMatchObject({ bestBid: '0', rolling24hTradeCount: 0, time: 77 });
  });

  it('rejects a record of another instrument or with unreadable fields, listing every problem', () => {
    const other = parseExactJson(
      '{"InstrumentId":2,"BestBid":1,"BestOffer":2,"LastTradedPx":1,"LastTradedQty":1,"LastTradeTime":1,' +
        '"Rolling24HrVolume":1,"Rolling24HrNumTrades":1}',
    );
    expect(() => decodeLevel1(other, BTC, 0)).toThrow('InstrumentId 2 is not 1');
    const broken = parseExactJson('{"InstrumentId":1,"BestBid":"x","LastTradeTime":1.5}');
    expect(() => decodeLevel1(broken, BTC, 0)).toThrow(
      /BestBid: expected a non-negative decimal number, got "x"; BestOffer: .*; and \d+ more/,
    );
    expect(() => decodeLevel1(parseExactJson('[1]'), BTC, 0)).toThrow('malformed Level 1 record');
  });
});
