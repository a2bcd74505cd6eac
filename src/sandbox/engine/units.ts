/**
 * Fixed-point numbers of the sandbox: an integer count of 10^-scale units held in a bigint,
 * so that every price, amount and sum is exact at any scale up to 18 decimals.
 */

const UNIT_TEXT = /^(\d+)(?:\.(\d+))?$/;

export class InvalidUnitsError extends Error {
  constructor(text: string, scale: number, reason: string) {
    super(`${JSON.stringify(text)} is not a valid amount at scale ${scale}: ${reason}`);
    this.name = 'InvalidUnitsError';
  }
}

const POWERS: bigint[] = Array.from({ length: 40 }, (_, i) => 10n ** BigInt(i));

export function pow10(exponent: number): bigint {
  return POWERS[exponent] ?? 10n ** BigInt(exponent);
}

/** Parses plain decimal text into units; more fraction digits than the scale allows is an error. */
export function parseUnits(text: string, scale: number): bigint {
  const match = UNIT_TEXT.exec(text);
  if (!match) throw new InvalidUnitsError(text, scale, 'not a plain non-negative decimal');
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > scale) throw new InvalidUnitsError(text, scale, `more than ${scale} decimals`);
  return BigInt(match[1]) * pow10(scale) + BigInt(fraction.padEnd(scale, '0') || '0');
}

/** Canonical plain text of units at a scale: no exponent, no trailing zeros ("0.5", "12"). */
export function formatUnits(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString();
  if (scale === 0) return negative ? `-${digits}` : digits;
  const padded = digits.padStart(scale + 1, '0');
  const integer = padded.slice(0, padded.length - scale);
  const fraction = padded.slice(padded.length - scale).replace(/0+$/, '');
  const text = fraction ? `${integer}.${fraction}` : integer;
  return negative ? `-${text}` : text;
}
