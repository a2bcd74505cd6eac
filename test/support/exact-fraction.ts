/**
 * An exact rational number for tests: a BigInt numerator over a positive BigInt denominator, always
 * reduced. Written apart from the service's own exact arithmetic so that tests recompute its figures
 * independently.
 */
export class Fraction {
  static readonly ZERO = new Fraction(0n, 1n);
  static readonly ONE = new Fraction(1n, 1n);

  readonly numerator: bigint;
  readonly denominator: bigint;

  private constructor(numerator: bigint, denominator: bigint) {
    if (denominator === 0n) throw new Error('division by zero');
    const sign = denominator < 0n ? -1n : 1n;
    const divisor = gcd(abs(numerator), abs(denominator)) || 1n;
    this.numerator = (sign * numerator) / divisor;
    this.denominator = (sign * denominator) / divisor;
  }

  static of(numerator: bigint, denominator = 1n): Fraction {
    return new Fraction(numerator, denominator);
  }

  /** Plain decimal text: an optional minus, digits, optionally a point and more digits. */
  static parse(text: string): Fraction {
    const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text.trim());
    if (!match) throw new Error(`not a plain decimal: ${JSON.stringify(text)}`);
    const [, minus, integer, decimals = ''] = match;
    const magnitude = BigInt(integer + decimals);
    return new Fraction(minus ? -magnitude : magnitude, 10n ** BigInt(decimals.length));
  }

  plus(other: Fraction): Fraction {
    return new Fraction(
      this.numerator * other.denominator + other.numerator * this.denominator,
      this.denominator * other.denominator,
    );
  }

  minus(other: Fraction): Fraction {
    return this.plus(new Fraction(-other.numerator, other.denominator));
  }

  times(other: Fraction): Fraction {
    return new Fraction(this.numerator * other.numerator, this.denominator * other.denominator);
  }

  dividedBy(other: Fraction): Fraction {
    return new Fraction(this.numerator * other.denominator, this.denominator * other.numerator);
  }

  /** -1, 0 or 1. */
  compare(other: Fraction): number {
    const difference = this.numerator * other.denominator - other.numerator * this.denominator;
    return difference < 0n ? -1 : difference > 0n ? 1 : 0;
  }

  equals(other: Fraction): boolean {
    return this.compare(other) === 0;
  }

  /** `decimals` decimals, rounded half away from zero, trailing zeros kept; never "-0.00". */
  toFixed(decimals: number): string {
    const scaled = abs(this.numerator) * 10n ** BigInt(decimals);
    const quotient = scaled / this.denominator;
    const remainder = scaled % this.denominator;
    const rounded = 2n * remainder >= this.denominator ? quotient + 1n : quotient;
    const digits = rounded.toString().padStart(decimals + 1, '0');
    const integer = digits.slice(0, digits.length - decimals);
    const text = decimals === 0 ? integer : `${integer}.${digits.slice(digits.length - decimals)}`;
    return this.numerator < 0n && rounded !== 0n ? `-${text}` : text;
  }
}

/** Σ of fractions; zero for none. */
export function sumOf(values: readonly Fraction[]): Fraction {
  return values.reduce((total, value) => total.plus(value), Fraction.ZERO);
}

function abs(value: bigint): bigint {
  return value < 0n ? -value : value;
}

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}
