import { parseExactJson } from '../exact-json';
import { GatewayPayloadError } from './gateway-payload-error';
import { decodeLevel2Snapshot, decodeLevel2Update, hasLevel2Rows } from './level2-codec';

const PEPE = { instrumentId: 5, instrument: 'pepe_eth' };
const BTC = { instrumentId: 1, instrument: 'btc_usdt' };

describe('Level 2 codec', () => {
  it('reads the subscribe reply as a snapshot with exact digits, bids and asks by Side', () => {
    const payload = parseExactJson(
      '[[500010,1,1700000000100,0,0.000000012345678901,3,0.000000012345678901,5,123456789.123456789012345678,0],' +
        '[500010,1,1700000000200,0,0,1,0.0000000123460000000000000000,5,1e-18,1]]',
    );
    expect(decodeLevel2Snapshot(payload, PEPE, 42)).toEqual({
      instrument: 'pepe_eth',
      version: 500010,
      snapshot: true,
      updates: [
        { side: 'bid', price: '0.000000012345678901', amount: '123456789.123456789012345678' },
        { side: 'ask', price: '0.000000012346', amount: '0.000000000000000001' },
      ],
      time: 1700000000200,
    });
  });

  it('gives an empty book a snapshot without levels at version 0, stamped with the receive time', () => {
    expect(decodeLevel2Snapshot(parseExactJson('[]'), BTC, 1234)).toEqual({
      instrument: 'btc_usdt',
      version: 0,
      snapshot: true,
      updates: [],
      time: 1234,
    });
  });

  it('keeps the rows of an update in array order, deletes as amount 0, version the highest id', () => {
    // A delete followed by a new row at the same price, ids unsorted within the frame.
    const payload = parseExactJson(
      '[[107,1,1700000000300,2,30000.5,0,30000.5,1,0.75,0],' +
        '[105,1,1700000000350,0,30000.5,2,30000.5,1,1.25000000,0],' +
        '[106,1,1700000000200,1,30000.5,1,30010.10,1,0.1,1],' +
        '[104,1,1700000000100,2,30000.5,0,30020,1,0,1]]',
    );
    expect(decodeLevel2Update(payload, BTC, 99)).toEqual({
      instrument: 'btc_usdt',
      version: 107,
      snapshot: false,
      updates: [
        { side: 'bid', price: '30000.5', amount: '0' },
        { side: 'bid', price: '30000.5', amount: '1.25' },
        { side: 'ask', price: '30010.1', amount: '0.1' },
        { side: 'ask', price: '30020', amount: '0' },
      ],
      time: 1700000000350,
    });
  });

  it('ignores the quantity of a delete row, whatever it holds', () => {
    const payload = parseExactJson('[[7,0,0,2,0,0,1.5,1,"garbage",1]]');
    expect(decodeLevel2Update(payload, BTC, 5)?.updates).toEqual([
      { side: 'ask', price: '1.5', amount: '0' },
    ]);
  });

  it('leaves out rows of other instruments, and a frame without rows of the instrument', () => {
    const payload = parseExactJson('[[7,1,10,0,0,1,2.5,2,1,0],[8,1,11,0,0,1,3.5,1,2,1]]');
    expect(decodeLevel2Update(payload, BTC, 5)).toMatchObject({
      version: 8,
      updates: [{ side: 'ask', price: '3.5', amount: '2' }],
    });
    expect(decodeLevel2Update(parseExactJson('[[7,1,10,0,0,1,2.5,2,1,0]]'), BTC, 5)).toBeUndefined();
    expect(hasLevel2Rows(payload, 2)).toBe(true);
    expect(hasLevel2Rows(payload, 3)).toBe(false);
    expect(hasLevel2Rows(parseExactJson('{"InstrumentId":1}'), 1)).toBe(false);
  });

  it('rejects malformed payloads with every problem named by position', () => {
    const decode = (text: string) => () => decodeLevel2Update(parseExactJson(text), BTC, 0);
    expect(decode('{"rows":[]}')).toThrow(GatewayPayloadError);
    expect(decode('[[1,1,1,0,0,1,2.5,1,1]]')).toThrow('[0]: expected an array of at least 10 values');
    expect(decode('[[1,1,1,3,0,1,2.5,1,1,0]]')).toThrow('[0][3]: expected an integer from 0 to 2');
    expect(decode('[[1,1,1,0,0,1,2.5,1,1,2]]')).toThrow('[0][9]: expected an integer from 0 to 1');
    expect(decode('[[1,1,1,0,0,1,0,1,1,0]]')).toThrow('[0][6]: expected a decimal above zero');
    expect(decode('[[1,1,1,1,0,1,"1.5",1,-1,0]]')).toThrow('[0][8]: expected a non-negative decimal');
    expect(decode('[[1.5,1,1,0,0,1,2,1,1,0]]')).toThrow('[0][0]');
    let error: GatewayPayloadError | undefined;
    try {
      decode('[[1,1,1,0,0,1,"x",1,1,0],[1,1,1,0,0,1,2,1,"y",0]]')();
    } catch (caught) {
      error = caught as GatewayPayloadError;
    }
    expect(error?.problems).toEqual([
      '[0][6]: expected a non-negative decimal number, got "x"',
      '[1][8]: expected a non-negative decimal number, got "y"',
    ]);
  });
});
