import fc from 'fast-check';
import { parse as parseLossless } from 'lossless-json';
import { parseExactJson } from './exact-json';
import { withTypos } from './testing/json-typos';

/** The reference: lossless-json with every number kept as its text. */
function reference(text: string): unknown {
  return parseLossless(text, null, (number: string) => number);
}

type Outcome = { value: unknown } | { error: string };

function outcome(parse: (text: string) => unknown, text: string): Outcome {
  try {
    return { value: parse(text) };
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    return { error: error.message };
  }
}

const whitespace = fc.constantFrom('', '', '', ' ', '\n', '\t', '\r\n  ');

/** JSON number text as senders write it: trailing zeros, exponents, 18+ decimals, more digits than a double holds. */
const numberText = fc
  .tuple(
    fc.boolean(),
    fc.oneof(fc.constant('0'), fc.bigInt({ min: 1n, max: 10n ** 30n }).map(String)),
    fc.option(fc.stringMatching(/^[0-9]{1,30}$/), { nil: undefined }),
    fc.option(
      fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), fc.integer({ min: 0, max: 400 })),
      {
        nil: undefined,
      },
    ),
  )
  .map(
    ([negative, integer, fraction, exponent]) =>
      `${negative ? '-' : ''}${integer}${fraction ? `.${fraction}` : ''}${exponent ? exponent.join('') : ''}`,
  );

const stringText = fc.string({ unit: 'binary', maxLength: 12 }).map((text) => JSON.stringify(text));

/** JSON text with random whitespace between tokens and unique keys (lossless-json rejects repeated ones). */
const jsonText: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    numberText,
    stringText,
    fc.constantFrom('true', 'false', 'null'),
    fc
      .tuple(fc.array(tie('value'), { maxLength: 5 }), whitespace)
      .map(([items, space]) => `[${space}${items.join(`${space},`)}${space}]`),
    fc
      .tuple(
        fc.uniqueArray(fc.tuple(fc.string({ maxLength: 6 }), tie('value')), {
          maxLength: 5,
          selector: ([key]) => key,
        }),
        whitespace,
      )
      .map(
        ([entries, space]) =>
          `{${space}${entries.map(([key, value]) => `${JSON.stringify(key)}${space}:${value}`).join(`,${space}`)}}`,
      ),
  ),
})).value;

/** Characters that matter to JSON's grammar, to break valid text with. */
const SIGNIFICANT = [
  '{',
  '}',
  '[',
  ']',
  '"',
  ':',
  ',',
  '-',
  '+',
  '.',
  'e',
  '0',
  '1',
  '9',
  ' ',
  '\\',
  't',
  'n',
  'u',
];

const mutated = withTypos(jsonText, SIGNIFICANT);

describe('parseExactJson', () => {
  it('keeps every digit of every number as text', () => {
    const value = parseExactJson(
      '{"price":0.1,"amount":123456789.123456789012345678,"version":509444497,"tiny":1e-7,"list":[10,2.50]}',
    );
    expect(value).toEqual({
      price: '0.1',
      amount: '123456789.123456789012345678',
      version: '509444497',
      tiny: '1e-7',
      list: ['10', '2.50'],
    });
  });

  it('leaves strings, booleans and null alone', () => {
    expect(parseExactJson('{"s":"1.5","t":true,"n":null}')).toEqual({ s: '1.5', t: true, n: null });
  });

  it('leaves numbers inside strings alone, escaped quotes included', () => {
    expect(parseExactJson('["a \\"1.5\\" 2", "\\\\", 3]')).toEqual(['a "1.5" 2', '\\', '3']);
  });

  it('keeps a "__proto__" key as an own property, as JSON.parse does', () => {
    const value = parseExactJson('{"__proto__":{"a":1}}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(value['__proto__']).toEqual({ a: '1' });
  });

  it('rejects nesting deep enough to overflow the stack as malformed, and reads 1,000 levels', () => {
    expect(() => parseExactJson('['.repeat(100_000))).toThrow(SyntaxError);
    expect(() => parseExactJson(`${'{"a":'.repeat(1001)}1${'}'.repeat(1001)}`)).toThrow(SyntaxError);
    expect(parseExactJson(`${'['.repeat(1000)}1${']'.repeat(1000)}`)).toEqual(
      JSON.parse(`${'['.repeat(1000)}"1"${']'.repeat(1000)}`),
    );
  });

  it('rejects malformed text', () => {
    expect(() => parseExactJson('{"a":')).toThrow(SyntaxError);
    expect(() => parseExactJson('nope')).toThrow(SyntaxError);
    expect(() => parseExactJson('')).toThrow(SyntaxError);
  });

  it('rejects numbers as keys, unclosed strings, bad escapes and bad numbers', () => {
    for (const text of [
      '{1:2}',
      '{ 1 :2}',
      '{"a":1,2:3}',
      '"abc',
      '["a",1,"]',
      '["\\1]',
      '["\\x"]',
      '["a\nb"]',
      '[1,]',
      '{"a":1,}',
      '[1 2]',
      '[01]',
      '[1.]',
      '[.5]',
      '[+1]',
      '[1e]',
      '[-]',
    ])
      expect(() => parseExactJson(text)).toThrow(SyntaxError);
  });

  it('reads every valid text as lossless-json does, numbers kept as their text', () => {
    fc.assert(
      fc.property(jsonText, whitespace, (text, space) => {
        const padded = `${space}${text}${space}`;
        expect(parseExactJson(padded)).toEqual(reference(padded));
      }),
      { numRuns: 3000 },
    );
  });

  it('rejects exactly the texts lossless-json rejects, and reads the others alike', () => {
    fc.assert(
      fc.property(mutated, (text) => {
        const expected = outcome(reference, text);
        // lossless-json rejects a key repeated with another value; this parser keeps the last, as JSON.parse does.
        fc.pre(!('error' in expected && expected.error.startsWith('Duplicate key')));
        const actual = outcome(parseExactJson, text);
        expect('error' in actual).toBe('error' in expected);
        if ('value' in expected) expect(actual).toEqual(expected);
      }),
      { numRuns: 5000 },
    );
  });
});
