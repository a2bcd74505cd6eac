import { pow10 } from './fixed-point';

/**
 * An exact rational number: a conversion that divides (a price quoted the other way round) stays
 * exact until the one rounding of the published figure.
 */
export class ExactRatio {
  static readonly ZERO = new ExactRatio(0n, 1n);
  static readonly ONE = new ExactRatio(1n, 1n);

  private constructor(
    readonly numerator: bigint,
    /** Always above zero. */
    readonly denominator: bigint,
  ) {}

  /** Plain decimal text ("-12.50", "0.001"); no exponent. */
  static of(decimal: string): ExactRatio {
    const point = decimal.indexOf('.');
    if (point < 0) return new ExactRatio(BigInt(decimal), 1n);
    const fraction = decimal.length - point - 1;
    return new ExactRatio(BigInt(decimal.slice(0, point) + decimal.slice(point + 1)), pow10(fraction));
  }

  static fraction(numerator: bigint, denominator: bigint): ExactRatio {
    if (denominator === 0n) throw new RangeError('division by zero');
    return denominator < 0n
      ? new ExactRatio(-numerator, -denominator)
      : new ExactRatio(numerator, denominator);
  }

  plus(other: ExactRatio): ExactRatio {
    if (this.denominator === other.denominator)
      return new ExactRatio(this.numerator + other.numerator, this.denominator);
    return new ExactRatio(
      this.numerator * other.denominator + other.numerator * this.denominator,
      this.denominator * other.denominator,
    );
  }

  minus(other: ExactRatio): ExactRatio {
    return this.plus(new ExactRatio(-other.numerator, other.denominator));
  }

  times(other: ExactRatio): ExactRatio {
    return new ExactRatio(this.numerator * other.numerator, this.denominator * other.denominator);
  }

  dividedBy(other: ExactRatio): ExactRatio {
    return ExactRatio.fraction(this.numerator * other.denominator, this.denominator * other.numerator);
  }

  compare(other: ExactRatio): number {
    const left = this.numerator * other.denominator;
    const right = other.numerator * this.denominator;
    return left < right ? -1 : left > right ? 1 : 0;
  }

  get isZero(): boolean {
    return this.numerator === 0n;
  }

  /** Plain text at `scale` decimals, rounded half away from zero, trailing zeros kept, never "-0". */
  toFixed(scale: number): string {
    const scaled = this.numerator * pow10(scale);
    const magnitude = scaled < 0n ? -scaled : scaled;
    const rounded = (2n * magnitude + this.denominator) / (2n * this.denominator);
    const digits = rounded.toString().padStart(scale + 1, '0');
    const integer = digits.slice(0, digits.length - scale);
    const text = scale === 0 ? integer : `${integer}.${digits.slice(digits.length - scale)}`;
    return scaled < 0n && rounded !== 0n ? `-${text}` : text;
  }

  /** Exact plain text when the denominator divides a power of ten, else `toFixed(maxScale)`. */
  toExactText(maxScale: number): string {
    for (let scale = 0; scale <= maxScale; scale++) {
      if ((this.numerator * pow10(scale)) % this.denominator === 0n) return this.toFixed(scale);
    }
    return this.toFixed(maxScale);
  }
}
