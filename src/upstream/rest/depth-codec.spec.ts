import { parseExactJson } from '../exact-json';
import { decodeDepth } from './depth-codec';
import { MalformedBodyError } from '../malformed-body-error';

const RECEIVED_AT = 1_710_408_413_589;

function decode(text: string) {
  return decodeDepth(parseExactJson(text), RECEIVED_AT);
}

describe('decodeDepth', () => {
  it('decodes the documented sample into a snapshot message', () => {
    const book = decode(
      '{"instrument":"eth_btc","bids":[{"amount":0.3092258,"price":0.01734264},{"amount":51.61494099,"price":0.01734363}],' +
        '"asks":[{"amount":133.52370356,"price":0.01739337},{"amount":9.16854518,"price":0.01739838}],' +
        '"version":1891724,"askTotalAmount":1849.11363582,"bidTotalAmount":809.23878372,"snapshot":true}',
    );
    expect(book).toEqual({
      instrument: 'eth_btc',
      version: 1891724,
      snapshot: true,
      time: RECEIVED_AT,
      updates: [
        { side: 'bid', price: '0.01734264', amount: '0.3092258' },
        { side: 'bid', price: '0.01734363', amount: '51.61494099' },
        { side: 'ask', price: '0.01739337', amount: '133.52370356' },
        { side: 'ask', price: '0.01739838', amount: '9.16854518' },
      ],
    });
  });

  it('keeps junk far levels as sent and ignores totals that do not add up', () => {
    const book = decode(
      '{"instrument":"btc_usdt","bids":[{"amount":1,"price":2},{"amount":0.5,"price":10},{"amount":0.1,"price":21048.02}],' +
        '"asks":[{"amount":0.2,"price":21049},{"amount":2e-8,"price":34521343534252},{"amount":2E-8,"price":1e16}],' +
        '"version":482099033,"askTotalAmount":8.976481,"bidTotalAmount":999,"snapshot":true}',
    );
    expect(book.updates.filter((update) => update.side === 'bid').map((update) => update.price)).toEqual([
      '2',
      '10',
      '21048.02',
    ]);
    expect(book.updates.filter((update) => update.side === 'ask')).toEqual([
      { side: 'ask', price: '21049', amount: '0.2' },
      { side: 'ask', price: '34521343534252', amount: '0.00000002' },
      { side: 'ask', price: '10000000000000000', amount: '0.00000002' },
    ]);
  });

  it('keeps 18-decimal prices and amounts exact, from numbers or strings, with trailing zeros removed', () => {
    const book = decode(
      '{"instrument":"PEPE_ETH","bids":[{"amount":123456789.123456789012345678,"price":"0.000000004321987654"}],' +
        '"asks":[{"amount":"1.500000000000000000","price":0.000000004321987655}],"version":"7","snapshot":true}',
    );
    expect(book.instrument).toBe('pepe_eth');
    expect(book.version).toBe(7);
    expect(book.updates).toEqual([
      { side: 'bid', price: '0.000000004321987654', amount: '123456789.123456789012345678' },
      { side: 'ask', price: '0.000000004321987655', amount: '1.5' },
    ]);
  });

  it('decodes an empty book', () => {
    expect(decode('{"instrument":"a_b","bids":[],"asks":[],"version":0}').updates).toEqual([]);
  });

  it('rejects a body with a bad level, naming every problem', () => {
    const text =
      '{"instrument":"a_b","bids":[{"amount":1,"price":"x"},{"amount":1,"price":2}],' +
      '"asks":[{"amount":-1,"price":3},[4,5]],"version":1}';
    expect(() => decode(text)).toThrow(MalformedBodyError);
    try {
      decode(text);
    } catch (error) {
      expect((error as MalformedBodyError).problems).toEqual([
        'bids[0].price: expected a non-negative decimal number, got "x"',
        'asks[0].amount: expected a non-negative decimal number, got "-1"',
        'asks[1]: expected an object, got ["4","5"]',
      ]);
    }
  });

  it.each([
    ['not an object', '"depth"'],
    ['no instrument', '{"bids":[],"asks":[],"version":1}'],
    ['no bids', '{"instrument":"a_b","asks":[],"version":1}'],
    ['asks not an array', '{"instrument":"a_b","bids":[],"asks":{},"version":1}'],
    ['no version', '{"instrument":"a_b","bids":[],"asks":[]}'],
    ['fractional version', '{"instrument":"a_b","bids":[],"asks":[],"version":1.5}'],
    ['version beyond 2^53', '{"instrument":"a_b","bids":[],"asks":[],"version":9007199254740993}'],
  ])('rejects a body with %s', (_case, text) => {
    expect(() => decode(text)).toThrow(MalformedBodyError);
  });
});
