import Big from 'big.js';
import fc from 'fast-check';
import { canonicalDecimal, InvalidDecimalError } from './decimal-text';

const CANONICAL = /^(0|[1-9]\d*)(\.\d*[1-9])?$/;

describe('canonicalDecimal', () => {
  it.each([
    ['0.01734264', '0.01734264'],
    ['3842.855', '3842.855'],
    ['0.001', '0.001'],
    ['2e-8', '0.00000002'],
    ['1e16', '10000000000000000'],
    ['1E+2', '100'],
    ['1.50', '1.5'],
    ['007.50', '7.5'],
    ['1.', '1'],
    ['.5', '0.5'],
    ['10', '10'],
    ['0', '0'],
    ['0.000', '0'],
    ['-0', '0'],
    ['-0.0e5', '0'],
    ['-.0', '0'],
    ['0e999999', '0'],
    ['123.45e-5', '0.0012345'],
    ['.5e1', '5'],
    ['1.e1', '10'],
    ['1.5e+0', '1.5'],
    ['1e21', '1000000000000000000000'],
    ['1e-7', '0.0000001'],
    ['123456789.123456789012345678', '123456789.123456789012345678'],
  ])('writes %p as %p', (text, canonical) => {
    expect(canonicalDecimal(text)).toBe(canonical);
  });

  it.each([
    '',
    '-',
    '.',
    '-.',
    'e5',
    '.e5',
    '1e',
    '1e+',
    '-1',
    '-0.5',
    '-1e-9',
    '+1',
    ' 1',
    '1 ',
    '1,5',
    '0x10',
    'NaN',
    'Infinity',
    '1..2',
    '1e2.5',
    '--1',
    '١',
  ])('refuses %p with an InvalidDecimalError', (text) => {
    expect(() => canonicalDecimal(text)).toThrow(InvalidDecimalError);
  });

  it('says which text it refused', () => {
    let error: unknown;
    try {
      canonicalDecimal('-1.5');
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(InvalidDecimalError);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      name: 'InvalidDecimalError',
      text: '-1.5',
      message: 'not a decimal number: "-1.5"',
    });
  });

  const decimalText = fc
    .tuple(
      fc.stringMatching(/^\d{0,25}$/),
      fc.option(fc.stringMatching(/^\d{0,25}$/), { nil: undefined }),
      fc.option(fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), fc.nat(60)), {
        nil: undefined,
      }),
    )
    .filter(([whole, fraction]) => whole + (fraction ?? '') !== '')
    .map(
      ([whole, fraction, exponent]) =>
        `${whole}${fraction === undefined ? '' : `.${fraction}`}${exponent?.join('') ?? ''}`,
    );

  it('gives the value big.js reads, in canonical form', () => {
    fc.assert(
      fc.property(decimalText, (text) => {
        const canonical = canonicalDecimal(text);
        expect(canonical).toMatch(CANONICAL);
        expect(canonical).toBe(new Big(text).toFixed());
      }),
    );
  });

  it('leaves canonical text as it is', () => {
    fc.assert(
      fc.property(decimalText, (text) => {
        const canonical = canonicalDecimal(text);
        expect(canonicalDecimal(canonical)).toBe(canonical);
      }),
    );
  });

  it('writes JavaScript numbers, as String gives them, exactly', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, noNaN: true, noDefaultInfinity: true }), (value) => {
        expect(canonicalDecimal(String(value))).toBe(new Big(value).toFixed());
      }),
    );
  });

  it('refuses every negative value but zero', () => {
    fc.assert(
      fc.property(decimalText, (text) => {
        const negative = `-${text}`;
        if (new Big(text).eq(0)) expect(canonicalDecimal(negative)).toBe('0');
        else expect(() => canonicalDecimal(negative)).toThrow(InvalidDecimalError);
      }),
    );
  });
});
