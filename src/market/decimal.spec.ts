import fc from 'fast-check';
import {
  canonicalDecimal,
  compareCanonical,
  Decimal,
  formatFixed,
  InvalidDecimalError,
  plainCanonicalDecimal,
  toDecimal,
  toFixedScale,
} from './decimal';

/** Decimal text with up to 18 fraction digits and up to 20 integer digits, built from digits alone. */
const decimalText = fc
  .tuple(
    fc.bigInt({ min: 0n, max: 10n ** 20n - 1n }),
    fc.bigInt({ min: 0n, max: 10n ** 18n - 1n }),
    fc.integer({ min: 0, max: 18 }),
  )
  .map(([integer, fraction, scale]) =>
    scale === 0 ? `${integer}` : `${integer}.${fraction.toString().padStart(18, '0').slice(0, scale)}`,
  );

describe('canonicalDecimal', () => {
  it.each([
    ['8394.840', '8394.84'],
    ['0.0002140000000000000000000000', '0.000214'],
    ['1e-7', '0.0000001'],
    ['1.5E+3', '1500'],
    ['007', '7'],
    ['0.0', '0'],
    ['-0', '0'],
    ['-0.000', '0'],
    ['.5', '0.5'],
    ['5.', '5'],
    ['000.000', '0'],
    ['123456789.123456789012345678', '123456789.123456789012345678'],
  ])('%s -> %s', (input, expected) => {
    expect(canonicalDecimal(input)).toBe(expected);
  });

  it.each(['', 'abc', '1.2.3', 'NaN', 'Infinity', '-1', '0x10', '1e', ' 1'])('rejects %j', (input) => {
    expect(() => canonicalDecimal(input)).toThrow(InvalidDecimalError);
  });

  it('gives what decimal arithmetic gives, and rejects what it rejects, for any sign, zeros and exponent', () => {
    const reference = (text: string): string => {
      if (!/^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)) throw new InvalidDecimalError(text);
      const value = new Decimal(text);
      if (value.s < 0 && !value.eq(new Decimal('0'))) throw new InvalidDecimalError(text);
      return value.abs().toFixed();
    };
    const outcome = (canonical: (text: string) => string, text: string) => {
      try {
        return canonical(text);
      } catch (error) {
        if (!(error instanceof InvalidDecimalError)) throw error;
        return 'rejected';
      }
    };
    const texts = fc.oneof(
      fc
        .tuple(
          fc.constantFrom('', '', '-', '+'),
          fc.stringMatching(/^0{0,3}[0-9]{0,6}$/),
          fc.constantFrom('', '.'),
          fc.stringMatching(/^[0-9]{0,8}0{0,4}$/),
          fc.constantFrom('', '', 'e5', 'E-3', 'e+0', 'e'),
        )
        .map((parts) => parts.join('')),
      fc.string({ unit: fc.constantFrom('0', '1', '9', '.', '-', 'e', ' ', 'x'), maxLength: 8 }),
    );
    fc.assert(
      fc.property(texts, (text) => expect(outcome(canonicalDecimal, text)).toBe(outcome(reference, text))),
      { numRuns: 5000 },
    );
  });

  it('maps equal values to equal text and keeps every digit', () => {
    fc.assert(
      fc.property(decimalText, fc.integer({ min: 0, max: 12 }), (text, zeros) => {
        const padded = text.includes('.') ? text + '0'.repeat(zeros) : text;
        const canonical = canonicalDecimal(padded);
        expect(canonical).toBe(canonicalDecimal(text));
        expect(new Decimal(canonical).eq(new Decimal(text))).toBe(true);
      }),
    );
  });
});

describe('plainCanonicalDecimal', () => {
  it.each([
    ['8394.840', '8394.84'],
    ['0.0002140000000000000000000000', '0.000214'],
    ['0.0', '0'],
    ['0', '0'],
    ['30000', '30000'],
    ['12.5', '12.5'],
  ])('%s -> %s', (input, expected) => {
    expect(plainCanonicalDecimal(input)).toBe(expected);
  });

  it('takes exactly the non-negative JSON numbers in plain notation, and gives their values as plain text', () => {
    const texts = fc.oneof(
      fc
        .tuple(
          fc.constantFrom('', '', '-', '+'),
          fc.stringMatching(/^0{0,2}[0-9]{0,6}$/),
          fc.constantFrom('', '.', '.'),
          fc.stringMatching(/^[0-9]{0,8}0{0,4}$/),
          fc.constantFrom('', '', '', 'e5', 'E-3'),
        )
        .map((parts) => parts.join('')),
      fc.string({ unit: fc.constantFrom('0', '1', '9', '.', '-', 'e', ' '), maxLength: 6 }),
    );
    fc.assert(
      fc.property(texts, (text) => {
        const plain = plainCanonicalDecimal(text);
        expect(plain !== undefined).toBe(/^(0|[1-9]\d*)(\.\d+)?$/.test(text));
        // The reference is decimal arithmetic, which canonicalDecimal no longer uses for these texts.
        if (plain !== undefined) expect(plain).toBe(new Decimal(text).toFixed());
      }),
      { seed: 20261122, numRuns: 5000 },
    );
  });
});

describe('compareCanonical', () => {
  it('orders exactly like the decimal values, including values a float cannot tell apart', () => {
    expect(compareCanonical('12345678.123456789012345678', '12345678.123456789012345679')).toBe(-1);
    fc.assert(
      fc.property(decimalText, decimalText, (a, b) => {
        const x = canonicalDecimal(a);
        const y = canonicalDecimal(b);
        expect(Math.sign(compareCanonical(x, y))).toBe(new Decimal(x).cmp(new Decimal(y)));
      }),
    );
  });
});

describe('formatFixed', () => {
  it.each([
    ['0.125', 2, '0.13'],
    ['-0.125', 2, '-0.13'],
    ['-0.001', 2, '0.00'],
    ['5', 8, '5.00000000'],
    ['0.00000001234', 10, '0.0000000123'],
    ['100000000000000000000000', 2, '100000000000000000000000.00'],
  ])('%s at scale %d -> %s', (input, scale, expected) => {
    expect(formatFixed(toDecimal(input), scale)).toBe(expected);
  });

  it('never renders an exponent or negative zero', () => {
    fc.assert(
      fc.property(decimalText, fc.integer({ min: 0, max: 18 }), fc.boolean(), (text, scale, negative) => {
        const value = toDecimal(negative ? `-${text}` : text);
        expect(formatFixed(value, scale)).toMatch(
          scale === 0 ? /^-?\d+$/ : new RegExp(`^-?\\d+\\.\\d{${scale}}$`),
        );
        expect(formatFixed(value, scale)).not.toMatch(/^-0(\.0*)?$/);
      }),
    );
  });
});

describe('toFixedScale', () => {
  it('renders exactly what formatFixed renders, without arithmetic when none is needed', () => {
    expect(toFixedScale('65000', 2)).toBe('65000.00');
    expect(toFixedScale('0.5', 0)).toBe('1');
    expect(toFixedScale('12', 0)).toBe('12');
    expect(toFixedScale('0.000000004321987654', 18)).toBe('0.000000004321987654');
    fc.assert(
      fc.property(decimalText, fc.integer({ min: 0, max: 18 }), (text, scale) => {
        const canonical = canonicalDecimal(text);
        expect(toFixedScale(canonical, scale)).toBe(formatFixed(toDecimal(canonical), scale));
      }),
    );
  });
});
