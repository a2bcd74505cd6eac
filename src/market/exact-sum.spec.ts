import fc from 'fast-check';
import { canonicalDecimal, Decimal, InvalidDecimalError } from './decimal';
import { ExactSum } from './exact-sum';

const SEED = 20261126;

/** Canonical non-negative decimals, short and long (past what a double holds exactly), up to 28 decimals. */
const decimalText = fc
  .tuple(
    fc.oneof(fc.constant(''), fc.stringMatching(/^[0-9]{1,22}$/)),
    fc.oneof(fc.constant(''), fc.stringMatching(/^[0-9]{1,28}$/)),
  )
  .map(([integer, fraction]) => canonicalDecimal(`${integer || '0'}${fraction ? `.${fraction}` : ''}`));

/** A decimal, or the product of two, added (sign 1) or subtracted (sign -1). */
type Step = { sign: 1 | -1 } & ({ value: string } | { a: string; b: string });

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ sign: fc.constantFrom(1 as const, -1 as const), value: decimalText }),
  fc.record({ sign: fc.constantFrom(1 as const, -1 as const), a: decimalText, b: decimalText }),
);

function oracle(steps: readonly Step[]): string {
  let sum = new Decimal('0');
  for (const s of steps) {
    const term = 'value' in s ? new Decimal(s.value) : new Decimal(s.a).times(s.b);
    sum = s.sign === 1 ? sum.plus(term) : sum.minus(term);
  }
  return sum.toFixed();
}

function run(steps: readonly Step[]): string {
  const sum = new ExactSum();
  for (const s of steps) {
    if ('value' in s) {
      if (s.sign === 1) sum.add(s.value);
      else sum.subtract(s.value);
    } else if (s.sign === 1) sum.addProduct(s.a, s.b);
    else sum.subtractProduct(s.a, s.b);
  }
  return sum.toText();
}

describe('ExactSum', () => {
  it('gives what decimal arithmetic gives, as canonical text, for any run of additions and subtractions', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
        expect(run(steps)).toBe(oracle(steps));
      }),
      { seed: SEED, numRuns: 3_000 },
    );
  });

  it('returns to exactly "0" when everything added leaves again, in any order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(decimalText, decimalText), { minLength: 1, maxLength: 20 }),
        fc.integer(),
        (trades, rotation) => {
          const sum = new ExactSum();
          for (const [price, amount] of trades) sum.addProduct(price, amount);
          const shift = Math.abs(rotation) % trades.length;
          for (const [price, amount] of [...trades.slice(shift), ...trades.slice(0, shift)])
            sum.subtractProduct(price, amount);
          expect(sum.toText()).toBe('0');
        },
      ),
      { seed: SEED, numRuns: 1_000 },
    );
  });

  it('writes no trailing zeros, no bare point and no leading zeros', () => {
    const sum = new ExactSum();
    expect(sum.toText()).toBe('0');
    sum.add('0.25');
    sum.add('0.75');
    expect(sum.toText()).toBe('1');
    sum.add('0.0001');
    expect(sum.toText()).toBe('1.0001');
    sum.subtract('1.0001');
    sum.add('0.00000000000000000000000000001');
    expect(sum.toText()).toBe('0.00000000000000000000000000001');
    sum.subtract('0.00000000000000000000000000002');
    expect(sum.toText()).toBe('-0.00000000000000000000000000001');
  });

  it('keeps integers past what a double holds exactly', () => {
    const sum = new ExactSum();
    sum.add('9007199254740993');
    sum.add('1');
    expect(sum.toText()).toBe('9007199254740994');
    sum.addProduct('123456789.123456789', '987654321.987654321');
    const product = new Decimal('123456789.123456789').times('987654321.987654321');
    expect(sum.toText()).toBe(product.plus('9007199254740994').toFixed());
  });

  it('reads the other spellings of a decimal as canonicalDecimal does', () => {
    const spellings = ['1.', '.5', '007.50', '1e-3', '2E2', '0.000'];
    const sum = new ExactSum();
    for (const text of spellings) sum.addProduct(text, text);
    for (const text of spellings) sum.add(text);
    let expected = new Decimal('0');
    for (const text of spellings) expected = expected.plus(new Decimal(canonicalDecimal(text)).pow(2));
    for (const text of spellings) expected = expected.plus(canonicalDecimal(text));
    expect(sum.toText()).toBe(expected.toFixed());
  });

  it.each(['', '.', '-1', '1,5', ' 1', 'abc', '1e', 'NaN'])('rejects %j as a decimal', (text) => {
    expect(() => new ExactSum().add(text)).toThrow(InvalidDecimalError);
    expect(() => new ExactSum().addProduct('1', text)).toThrow(InvalidDecimalError);
  });
});
