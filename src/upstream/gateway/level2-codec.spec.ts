import fc from 'fast-check';
import { LevelUpdate } from '../../market/book-update';
import { ExactJson, parseExactJson } from '../exact-json';
import { decimalText } from '../json-fields';
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

  it('decodes any generated payload as a plain reading of the row rules would, or rejects it as that would', () => {
    const integer = fc.oneof(
      { arbitrary: fc.nat({ max: 2 }).map(String), weight: 6 },
      { arbitrary: fc.nat().map(String), weight: 3 },
      fc.constantFrom(
        '-1',
        '-0',
        '1.0',
        '1e2',
        '9007199254740992',
        '12345678901234567',
        '"7"',
        '"x"',
        'null',
        '[]',
      ),
    );
    const decimal = fc.oneof(
      {
        arbitrary: fc.constantFrom('30000.5', '0.000000012340000000', '1', '0', '0.0', '12.50000000000000'),
        weight: 6,
      },
      fc.constantFrom('-1', '1e-8', '"2.5"', '".5"', '"abc"', 'null', '{}', '1e999'),
    );
    const row = fc.oneof(
      {
        arbitrary: fc
          .tuple(integer, integer, integer, integer, decimal, integer, decimal, integer, decimal, integer)
          .map((values) => `[${values.join(',')}]`),
        weight: 12,
      },
      fc.constantFrom('[1,2,3]', '"row"', 'null', '[7,1,0,1,0,1,1.5,1,2,0,"extra"]'),
    );
    const payload = fc.array(row, { maxLength: 5 }).map((rows) => parseExactJson(`[${rows.join(',')}]`));

    /** The rules of a row, read plainly: an independent model of what the codec must do. */
    function model(rows: ExactJson): { updates: LevelUpdate[]; version: number; time: number } | 'rejected' {
      const integerOf = (value: ExactJson, max: number) => {
        const number = typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : NaN;
        return Number.isSafeInteger(number) && number >= 0 && number <= max ? number : undefined;
      };
      const updates: LevelUpdate[] = [];
      let version = 0;
      let time = 0;
      let rejected = false;
      for (const row of rows as ExactJson[]) {
        if (!Array.isArray(row) || row.length < 10) {
          rejected = true;
          continue;
        }
        const instrument = integerOf(row[7], Number.MAX_SAFE_INTEGER);
        if (instrument !== undefined && instrument !== BTC.instrumentId) continue;
        const updateId = integerOf(row[0], Number.MAX_SAFE_INTEGER);
        const changedAt = integerOf(row[2], Number.MAX_SAFE_INTEGER);
        const action = integerOf(row[3], 2);
        const side = integerOf(row[9], 1);
        const price = decimalText(row[6]);
        const amount = action === 2 ? '0' : decimalText(row[8]);
        if (
          [instrument, updateId, changedAt, action, side, price, amount].includes(undefined) ||
          price === '0'
        ) {
          rejected = true;
          continue;
        }
        updates.push({ side: side === 0 ? 'bid' : 'ask', price: price!, amount: amount! });
        version = Math.max(version, updateId!);
        time = Math.max(time, changedAt!);
      }
      return rejected ? 'rejected' : { updates, version, time };
    }

    let accepted = 0;
    fc.assert(
      fc.property(payload, (rows) => {
        const expected = model(rows);
        let decoded;
        try {
          decoded = decodeLevel2Snapshot(rows, BTC, 0);
        } catch (error) {
          expect(error).toBeInstanceOf(GatewayPayloadError);
          expect(expected).toBe('rejected');
          return;
        }
        expect(expected).not.toBe('rejected');
        accepted += 1;
        const { updates, version, time } = expected as Exclude<typeof expected, 'rejected'>;
        expect(decoded).toEqual({
          instrument: BTC.instrument,
          version,
          snapshot: true,
          updates,
          time: time || 0,
        });
      }),
      { seed: 20261122, numRuns: 3_000 },
    );
    // Half the payloads are meant to be valid, so that decoding is checked, not only rejection.
    expect(accepted).toBeGreaterThan(1_000);
  });
});
