import fc from 'fast-check';
import { parse as parseLossless } from 'lossless-json';
import { JsonNumber, toJson } from './json-number';

/** Reads JSON keeping every number as its text. */
const readNumbersAsText = (text: string): unknown => parseLossless(text, null, (number: string) => number);

describe('JsonNumber', () => {
  it('is written as a bare number with exactly its text', () => {
    const depth = {
      bids: [{ amount: new JsonNumber('0.3092258'), price: new JsonNumber('0.01734264') }],
      version: 1891724,
      snapshot: true,
    };
    expect(toJson(depth)).toBe(
      '{"bids":[{"amount":0.3092258,"price":0.01734264}],"version":1891724,"snapshot":true}',
    );
  });

  it('keeps what a float would lose', () => {
    expect(toJson({ serverTime: new JsonNumber('636880696809972288') })).toBe(
      '{"serverTime":636880696809972288}',
    );
    expect(toJson([new JsonNumber('123.456789012345678901'), new JsonNumber('1.50')])).toBe(
      '[123.456789012345678901,1.50]',
    );
  });

  it('takes any JSON number, exponents included', () => {
    expect(toJson([new JsonNumber('1e16'), new JsonNumber('2E-8'), new JsonNumber('-0')])).toBe(
      '[1e16,2E-8,-0]',
    );
  });

  it.each(['', '007', '1.', '.5', '+1', '1e', 'NaN', 'Infinity', ' 1', '1 ', '"1"', 'true', '0x10'])(
    'refuses %p, which is no JSON number',
    (text) => {
      expect(() => new JsonNumber(text)).toThrow(RangeError);
    },
  );
});

describe('toJson', () => {
  it('writes everything else as JSON.stringify does', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(toJson(value)).toBe(JSON.stringify(value));
      }),
    );
  });

  it('never takes a string for a number', () => {
    expect(toJson({ id: '\u00011', price: new JsonNumber('1') })).toBe('{"id":"\\u00011","price":1}');
    expect(toJson(['5', new JsonNumber('5')])).toBe('["5",5]');
  });

  it('refuses a value that has no JSON text', () => {
    expect(() => toJson(undefined)).toThrow(TypeError);
  });

  const numberText = fc
    .tuple(
      fc.boolean(),
      fc.bigInt({ min: 0n, max: 10n ** 30n }),
      fc.option(fc.stringMatching(/^\d{1,20}$/), { nil: undefined }),
    )
    .map(([negative, whole, fraction]) => `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`);

  it('hands every JsonNumber text to a reader unchanged', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), numberText), fc.string(), (fields, label) => {
        const value = {
          label,
          fields: Object.fromEntries(Object.entries(fields).map(([k, t]) => [k, new JsonNumber(t)])),
        };
        expect(readNumbersAsText(toJson(value))).toEqual({ label, fields });
      }),
    );
  });
});
