import { parseExactJson } from '../exact-json';
import { GatewayPayloadError } from './gateway-payload-error';
import { decodeTrades, hasTradesOf } from './trade-rows-codec';

const NAMES = new Map([
  [1, 'btc_usdt'],
  [5, 'pepe_eth'],
]);

describe('trade rows codec', () => {
  it('reads positional rows in order, with exact digits and the taker side', () => {
    const payload = parseExactJson(
      '[[5000001,5,123456789.123456789012345678,0.000000012345678901,11,12,1700000000123,1,0,false,0],' +
        '[5000002,1,0.0002140000000000000000000000,46532.54,13,14,1700000000456,2,1,0,0]]',
    );
    expect(decodeTrades(payload, NAMES)).toEqual([
      {
        id: '5000001',
        instrument: 'pepe_eth',
        price: '0.000000012345678901',
        amount: '123456789.123456789012345678',
        side: 'buy',
        time: 1700000000123,
      },
      {
        id: '5000002',
        instrument: 'btc_usdt',
        price: '46532.54',
        amount: '0.000214',
        side: 'sell',
        time: 1700000000456,
      },
    ]);
  });

  it('keeps trade ids beyond 2^53 as exact integer text', () => {
    const payload = parseExactJson('[[90071992547409930001,1,1,2,0,0,1700000000000,0,0,0,0]]');
    expect(decodeTrades(payload, NAMES)[0].id).toBe('90071992547409930001');
  });

  it('leaves out trades of instruments it has no name for', () => {
    const payload = parseExactJson(
      '[[1,3,1,2,0,0,1700000000000,0,0,0,0],[2,1,1,2,0,0,1700000000000,0,1,0,0]]',
    );
    expect(decodeTrades(payload, NAMES).map((trade) => trade.id)).toEqual(['2']);
    expect(hasTradesOf(payload, 3)).toBe(true);
    expect(hasTradesOf(payload, 7)).toBe(false);
  });

  it("reads the account event's object shape, alone or in an array, with .NET ticks", () => {
    const event = parseExactJson(
      '{"OMSId":1,"TradeId":77,"OrderId":9,"AccountId":4,"ClientOrderId":0,"InstrumentId":1,"Side":"Sell",' +
        '"Quantity":0.5,"Price":30000.10,"Value":15000.05,"TradeTime":638355744001230000,"ContraAcctId":3,' +
        '"OrderTradeRevision":1,"Direction":"NoChange"}',
    );
    const trade = {
      id: '77',
      instrument: 'btc_usdt',
      price: '30000.1',
      amount: '0.5',
      side: 'sell',
      time: 1699977600123,
    };
    expect(decodeTrades(event, NAMES)).toEqual([trade]);
    expect(decodeTrades([event], NAMES)).toEqual([trade]);
    expect(hasTradesOf(event, 1)).toBe(true);
    expect(hasTradesOf(event, 5)).toBe(false);
  });

  it('rejects malformed rows with every problem named', () => {
    const decode = (text: string) => () => decodeTrades(parseExactJson(text), NAMES, 'TradeDataUpdateEvent');
    expect(decode('[[1,1,1,2,0,0,1700000000000,0,2,0,0]]')).toThrow(
      'malformed TradeDataUpdateEvent: [0][8]: expected an integer from 0 to 1',
    );
    expect(decode('[[1,1,0,2,0,0,1700000000000,0,0,0,0]]')).toThrow('[0][2]: expected a decimal above zero');
    expect(decode('[[-1,1,1,2,0,0,1700000000000,0,0,0,0]]')).toThrow(
      '[0][0]: expected a non-negative integer',
    );
    expect(decode('[[1,1,1,2,0,0]]')).toThrow(GatewayPayloadError);
    expect(decode('[null]')).toThrow(GatewayPayloadError);
    expect(decode('"PONG"')).toThrow(GatewayPayloadError);
  });
});
