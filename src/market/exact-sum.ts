import { canonicalDecimal, plainCanonicalDecimal } from './decimal';
import { formatUnits, pow10 } from './fixed-point';

/** Decimal digits that a double holds as an exact integer, whatever they are. */
const EXACT_DOUBLE_DIGITS = 15;
const ZERO_CODE = 0x30;
const POINT_CODE = 0x2e;

/**
 * A running sum of non-negative decimal texts, and of products of two, kept exactly: a BigInt count
 * of units of 10^-scale, the scale growing to the longest fraction that entered. A trade's volume
 * adds and later leaves the sums of a 24-hour window; with decimal objects each step built arrays of
 * digits, where here it makes one small integer.
 */
export class ExactSum {
  private units = 0n;
  private scale = 0;

  add(decimal: string): void {
    const text = plainText(decimal);
    this.addUnits(unitsOf(text), fractionDigits(text));
  }

  subtract(decimal: string): void {
    const text = plainText(decimal);
    this.addUnits(-unitsOf(text), fractionDigits(text));
  }

  /** Adds `a` times `b`. */
  addProduct(a: string, b: string): void {
    const x = plainText(a);
    const y = plainText(b);
    this.addUnits(unitsOf(x) * unitsOf(y), fractionDigits(x) + fractionDigits(y));
  }

  /** Subtracts `a` times `b`. */
  subtractProduct(a: string, b: string): void {
    const x = plainText(a);
    const y = plainText(b);
    this.addUnits(-(unitsOf(x) * unitsOf(y)), fractionDigits(x) + fractionDigits(y));
  }

  /** The sum as canonical decimal text ("-" first when below zero). */
  toText(): string {
    return formatUnits(this.units, this.scale);
  }

  private addUnits(units: bigint, scale: number): void {
    if (scale > this.scale) {
      this.units *= pow10(scale - this.scale);
      this.scale = scale;
    } else if (scale < this.scale) {
      units *= pow10(this.scale - scale);
    }
    this.units += units;
  }
}

/**
 * `decimal` when it is written as JSON writes a non-negative number (trailing zeros allowed), as
 * decoded prices and amounts are; else its canonical text, for any other spelling `canonicalDecimal`
 * accepts ("1.", ".5", exponents). Throws InvalidDecimalError for anything else.
 */
function plainText(decimal: string): string {
  return plainCanonicalDecimal(decimal) === undefined ? canonicalDecimal(decimal) : decimal;
}

function fractionDigits(decimal: string): number {
  const point = decimal.indexOf('.');
  return point < 0 ? 0 : decimal.length - point - 1;
}

/** The digits of a plain text (see plainText) as one integer, its point left out. */
function unitsOf(decimal: string): bigint {
  if (decimal.length > EXACT_DOUBLE_DIGITS) {
    const point = decimal.indexOf('.');
    return BigInt(point < 0 ? decimal : decimal.slice(0, point) + decimal.slice(point + 1));
  }
  let value = 0;
  for (let i = 0; i < decimal.length; i++) {
    const code = decimal.charCodeAt(i);
    if (code !== POINT_CODE) value = value * 10 + (code - ZERO_CODE);
  }
  return BigInt(value);
}
