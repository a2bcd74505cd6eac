import fc from 'fast-check';
import { parse as parseLossless } from 'lossless-json';
import { ExactJson, isJsonObject, parseExactJson } from './exact-json';

/** A second reader to compare with: lossless-json, every number kept as its text. */
const readLossless = (text: string): unknown => parseLossless(text, null, (number: string) => number);

describe('parseExactJson', () => {
  it('keeps the numbers of the exchange samples as their exact text', () => {
    const info = parseExactJson(
      '{"serverTime":636880696809972288,"pairs":{"btc_usdt":{"takerFee":0.001,"priceScale":6,"hidden":0,' +
        '"createdAt":"2019-11-14T16:18:49.253354"}}}',
    );
    expect(info).toEqual({
      serverTime: '636880696809972288',
      pairs: {
        btc_usdt: {
          takerFee: '0.001',
          priceScale: '6',
          hidden: '0',
          createdAt: '2019-11-14T16:18:49.253354',
        },
      },
    });
    const depth = parseExactJson(
      '{"asks":[{"amount":2e-8,"price":1e16}],"version":509444497,"snapshot":true}',
    );
    expect(depth).toEqual({
      asks: [{ amount: '2e-8', price: '1e16' }],
      version: '509444497',
      snapshot: true,
    });
  });

  it('keeps trailing zeros, signs, exponents and digits a float would lose', () => {
    expect(parseExactJson('[1.50, -0, 1E+2, 123456789.123456789012345678, 0.1]')).toEqual([
      '1.50',
      '-0',
      '1E+2',
      '123456789.123456789012345678',
      '0.1',
    ]);
  });

  it('leaves strings, booleans and null alone, numbers in strings included', () => {
    expect(parseExactJson('{"s":"1.5","e":"a \\"2\\" \\\\","t":true,"f":false,"n":null}')).toEqual({
      s: '1.5',
      e: 'a "2" \\',
      t: true,
      f: false,
      n: null,
    });
  });

  it('keeps the last value of a repeated key, as JSON.parse does', () => {
    expect(parseExactJson('{"price":1,"price":2.5}')).toEqual({ price: '2.5' });
  });

  it('keeps a "__proto__" key as an own property', () => {
    const value = parseExactJson('{"__proto__":{"amount":1}}') as Record<string, ExactJson>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(value['__proto__']).toEqual({ amount: '1' });
  });

  it.each([
    '',
    ' ',
    'nope',
    '{"a":',
    '{a:1}',
    "{'a':1}",
    '[1,]',
    '{"a":1,}',
    '[1 2]',
    '01',
    '1.',
    '.5',
    '+1',
    '1e',
    '-',
    'NaN',
    '"abc',
    '"a\nb"',
    '"\\x"',
    '{1:2}',
    '[1]]',
    'true false',
  ])('throws a SyntaxError on %p', (text) => {
    expect(() => parseExactJson(text)).toThrow(SyntaxError);
  });

  it('reads 1000 levels of nesting and refuses deeper ones as malformed', () => {
    const nested = (depth: number): string => `${'['.repeat(depth)}7${']'.repeat(depth)}`;
    let value = parseExactJson(nested(1000));
    for (let level = 0; level < 1000; level++) value = (value as ExactJson[])[0];
    expect(value).toBe('7');
    expect(() => parseExactJson(nested(1001))).toThrow(SyntaxError);
    expect(() => parseExactJson('{"a":'.repeat(100_000))).toThrow(SyntaxError);
    expect(parseExactJson(`["${'['.repeat(2000)}\\"${'{'.repeat(2000)}"]`)).toHaveLength(1);
  });

  const whitespace = fc.constantFrom('', ' ', '\n\t', '\r\n  ');
  const numberText = fc
    .tuple(
      fc.constantFrom('', '-'),
      fc.oneof(fc.constant('0'), fc.bigInt({ min: 1n, max: 10n ** 30n }).map(String)),
      fc.option(fc.stringMatching(/^\d{1,25}$/), { nil: undefined }),
      fc.option(fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), fc.nat(400)), {
        nil: undefined,
      }),
    )
    .map(([sign, whole, fraction, exponent]) => {
      const text = `${sign}${whole}${fraction === undefined ? '' : `.${fraction}`}${exponent?.join('') ?? ''}`;
      return [text, text] as [string, ExactJson];
    });
  /** JSON text paired with the value it holds, numbers written in every form JSON allows. */
  const document = fc.letrec<{ value: [string, ExactJson] }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      numberText,
      fc
        .string({ unit: 'binary', maxLength: 10 })
        .map((text): [string, ExactJson] => [JSON.stringify(text), text]),
      fc.constantFrom<[string, ExactJson]>(['true', true], ['false', false], ['null', null]),
      fc
        .tuple(fc.array(tie('value'), { maxLength: 4 }), whitespace)
        .map(([items, space]): [string, ExactJson] => [
          `[${space}${items.map(([text]) => text).join(`${space},${space}`)}${space}]`,
          items.map(([, value]) => value),
        ]),
      fc
        .tuple(
          fc.uniqueArray(fc.tuple(fc.string({ maxLength: 6 }), tie('value')), {
            maxLength: 4,
            selector: ([key]) => key,
          }),
          whitespace,
        )
        .map(([entries, space]): [string, ExactJson] => [
          `{${space}${entries.map(([key, [text]]) => `${JSON.stringify(key)}${space}:${space}${text}`).join(',')}${space}}`,
          Object.fromEntries(entries.map(([key, [, value]]) => [key, value])),
        ]),
    ),
  })).value;

  it('reads every document to the value it was written from, as lossless-json does', () => {
    fc.assert(
      fc.property(document, whitespace, ([text, value], space) => {
        const padded = `${space}${text}${space}`;
        expect(parseExactJson(padded)).toEqual(value);
        expect(parseExactJson(padded)).toEqual(readLossless(padded));
      }),
      { numRuns: 2000 },
    );
  });

  /** A document with one character inserted, removed or replaced by one that matters to JSON. */
  const damaged = fc
    .tuple(
      document,
      fc.nat(),
      fc.constantFrom('', '{', '}', '[', ']', '"', ':', ',', '-', '.', 'e', '0', '1', '\\', ' ', 'x'),
      fc.boolean(),
    )
    .map(([[text], at, char, replace]) => {
      const position = at % (text.length + 1);
      return text.slice(0, position) + char + text.slice(position + (replace ? 1 : 0));
    });

  it('accepts exactly what JSON.parse accepts', () => {
    fc.assert(
      fc.property(damaged, (text) => {
        let valid = true;
        try {
          JSON.parse(text);
        } catch {
          valid = false;
        }
        if (valid) expect(() => parseExactJson(text)).not.toThrow();
        else expect(() => parseExactJson(text)).toThrow(SyntaxError);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('isJsonObject', () => {
  it('is true for objects only', () => {
    expect(isJsonObject({})).toBe(true);
    expect(isJsonObject({ a: '1' })).toBe(true);
    for (const value of [[], null, '1', 'text', true, false, undefined])
      expect(isJsonObject(value)).toBe(false);
  });
});
