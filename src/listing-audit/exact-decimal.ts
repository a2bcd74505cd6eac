import { formatUnits, pow10 } from '../market/fixed-point';

/**
 * Exact decimal values for comparing what an endpoint wrote: a bigint count of 10^-scale units.
 * Only plain notation is read (the checks report anything else before arithmetic needs it).
 */
export interface ExactDecimal {
  readonly units: bigint;
  readonly scale: number;
}

const PLAIN = /^(-?)(\d+)(?:\.(\d+))?$/;

export function exactDecimal(text: string): ExactDecimal | undefined {
  const match = PLAIN.exec(text);
  if (match === null) return undefined;
  const fraction = match[3] ?? '';
  const units = BigInt(match[2] + fraction);
  return { units: match[1] === '-' ? -units : units, scale: fraction.length };
}

/** Like `exactDecimal`, for text the caller already knows to be plain. */
export function exact(text: string): ExactDecimal {
  const value = exactDecimal(text);
  if (value === undefined) throw new Error(`not a plain decimal: ${text}`);
  return value;
}

export const ZERO: ExactDecimal = { units: 0n, scale: 0 };

function aligned(a: ExactDecimal, b: ExactDecimal): [bigint, bigint, number] {
  const scale = Math.max(a.scale, b.scale);
  return [a.units * pow10(scale - a.scale), b.units * pow10(scale - b.scale), scale];
}

export function plus(a: ExactDecimal, b: ExactDecimal): ExactDecimal {
  const [x, y, scale] = aligned(a, b);
  return { units: x + y, scale };
}

export function minus(a: ExactDecimal, b: ExactDecimal): ExactDecimal {
  const [x, y, scale] = aligned(a, b);
  return { units: x - y, scale };
}

export function times(a: ExactDecimal, b: ExactDecimal): ExactDecimal {
  return { units: a.units * b.units, scale: a.scale + b.scale };
}

export function compare(a: ExactDecimal, b: ExactDecimal): -1 | 0 | 1 {
  const [x, y] = aligned(a, b);
  return x < y ? -1 : x > y ? 1 : 0;
}

export function abs(a: ExactDecimal): ExactDecimal {
  return a.units < 0n ? { units: -a.units, scale: a.scale } : a;
}

/** Half a unit of the last digit `text` was written with: how far rounding to those digits can move a value. */
export function halfLastDigit(text: string): ExactDecimal {
  return { units: 5n, scale: exact(text).scale + 1 };
}

export function sum(values: readonly ExactDecimal[]): ExactDecimal {
  return values.reduce(plus, ZERO);
}

export function decimalText(value: ExactDecimal): string {
  return formatUnits(value.units, value.scale);
}
