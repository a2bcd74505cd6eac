import { ExactJson, parseExactJson } from '../exact-json';
import { decodeJsonBookItem, MalformedBookItemError } from './book-item-codec';

const RECEIVED_AT = 1_710_408_413_589;

function decode(text: string, expectedInstrument?: string) {
  return decodeJsonBookItem(parseExactJson(text), RECEIVED_AT, expectedInstrument);
}

function problemsOf(text: string, expectedInstrument?: string): readonly string[] {
  try {
    decode(text, expectedInstrument);
  } catch (error) {
    expect(error).toBeInstanceOf(MalformedBookItemError);
    return (error as MalformedBookItemError).problems;
  }
  throw new Error('the item was accepted');
}

describe('decodeJsonBookItem', () => {
  it('decodes the documented update: bids then asks, amount 0 kept as "0", the item snapshot flag', () => {
    const message = decode(
      '{"instrument":"btc_usdt","bids":[{"amount":1.3393,"price":8348.98}],"asks":[{"amount":0,"price":8394.84}],' +
        '"version":367398,"askTotalAmount":115.24421295,"bidTotalAmount":108.16757362,"snapshot":false}',
      'btc_usdt',
    );
    expect(message).toEqual({
      instrument: 'btc_usdt',
      version: 367398,
      snapshot: false,
      time: RECEIVED_AT,
      updates: [
        { side: 'bid', price: '8348.98', amount: '1.3393' },
        { side: 'ask', price: '8394.84', amount: '0' },
      ],
    });
  });

  it('takes a snapshot item as a snapshot, levels in the order sent', () => {
    const message = decode(
      '{"instrument":"eth_btc","bids":[{"amount":2,"price":0.01},{"amount":1,"price":0.02}],' +
        '"asks":[{"amount":3,"price":0.03}],"version":5,"snapshot":true}',
    );
    expect(message.snapshot).toBe(true);
    expect(message.updates.map((update) => `${update.side} ${update.price}`)).toEqual([
      'bid 0.01',
      'bid 0.02',
      'ask 0.03',
    ]);
  });

  it('keeps 18 decimals and 27 significant digits, from numbers or numeric strings, in canonical form', () => {
    const message = decode(
      '{"instrument":"PEPE_ETH","bids":[{"amount":123456789.123456789012345678,"price":"0.000000004321987654"}],' +
        '"asks":[{"amount":"1.500000000000000000","price":4.321987655e-9},{"amount":0.0,"price":"5E-9"}],' +
        '"version":"42","snapshot":false}',
    );
    expect(message.instrument).toBe('pepe_eth');
    expect(message.version).toBe(42);
    expect(message.updates).toEqual([
      { side: 'bid', price: '0.000000004321987654', amount: '123456789.123456789012345678' },
      { side: 'ask', price: '0.000000004321987655', amount: '1.5' },
      { side: 'ask', price: '0.000000005', amount: '0' },
    ]);
  });

  it('accepts empty sides', () => {
    expect(decode('{"instrument":"a_b","bids":[],"asks":[],"version":1,"snapshot":true}').updates).toEqual(
      [],
    );
  });

  it('lists every problem of an item, each with its place', () => {
    const problems = problemsOf(
      '{"instrument":"","bids":[{"amount":"x","price":1},{"price":-1,"amount":1}],"asks":{},"version":1.5,"snapshot":"yes"}',
    );
    expect(problems).toEqual([
      'item.instrument: expected a non-empty string, got ""',
      expect.stringMatching(/^item\.version: expected an integer/),
      'item.snapshot: expected true, false, 0 or 1, got "yes"',
      'item.bids[0].amount: expected a non-negative decimal number, got "x"',
      'item.bids[1].price: expected a non-negative decimal number, got "-1"',
      'item.asks: expected an array, got {}',
    ]);
  });

  it.each([
    ['no object', '[]', /^item: expected an object/],
    ['no instrument', '{"bids":[],"asks":[],"version":1,"snapshot":true}', /^item\.instrument: expected/],
    [
      'a negative version',
      '{"instrument":"a_b","bids":[],"asks":[],"version":-1,"snapshot":true}',
      /version/,
    ],
    ['no snapshot flag', '{"instrument":"a_b","bids":[],"asks":[],"version":1}', /^item\.snapshot/],
    [
      'no bids',
      '{"instrument":"a_b","asks":[],"version":1,"snapshot":true}',
      /^item\.bids: expected an array/,
    ],
    [
      'a level that is no object',
      '{"instrument":"a_b","bids":[[1,2]],"asks":[],"version":1,"snapshot":true}',
      /bids\[0\]/,
    ],
    [
      'a price that is a boolean',
      '{"instrument":"a_b","bids":[],"asks":[{"amount":1,"price":true}],"version":1,"snapshot":false}',
      /asks\[0\]\.price/,
    ],
    [
      'a huge exponent',
      '{"instrument":"a_b","bids":[],"asks":[{"amount":1,"price":1e999999}],"version":1,"snapshot":false}',
      /asks\[0\]\.price/,
    ],
  ])('rejects an item with %s', (_case, text, problem) => {
    expect(problemsOf(text)).toEqual([expect.stringMatching(problem)]);
  });

  it('rejects an item of another instrument than the stream asked for, in any case', () => {
    expect(
      decode('{"instrument":"BTC_USDT","bids":[],"asks":[],"version":1,"snapshot":true}', 'btc_usdt')
        .instrument,
    ).toBe('btc_usdt');
    expect(
      problemsOf('{"instrument":"eth_btc","bids":[],"asks":[],"version":1,"snapshot":true}', 'btc_usdt'),
    ).toEqual(['item.instrument: expected "btc_usdt", got "eth_btc"']);
    expect(
      problemsOf('{"instrument":"eth_btc","bids":[],"asks":[],"version":-1,"snapshot":true}', 'btc_usdt'),
    ).toEqual([
      'item.instrument: expected "btc_usdt", got "eth_btc"',
      'item.version: expected an integer from 0 to 9007199254740991, got "-1"',
    ]);
  });

  it('rejects numbers that already went through a float', () => {
    const floats = JSON.parse(
      '{"instrument":"a_b","bids":[],"asks":[],"version":1,"snapshot":true}',
    ) as ExactJson;
    expect(() => decodeJsonBookItem(floats, 0)).toThrow(MalformedBookItemError);
  });
});
