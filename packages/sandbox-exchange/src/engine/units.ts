import { pow10 } from '../wire/fixed-point';

/**
 * Fixed-point numbers of the sandbox: an integer count of 10^-scale units held in a bigint,
 * so that every price, amount and sum is exact at any scale up to 18 decimals.
 */

export { formatUnits, pow10 } from '../wire/fixed-point';

const UNIT_TEXT = /^(\d+)(?:\.(\d+))?$/;

export class InvalidUnitsError extends Error {
  constructor(text: string, scale: number, reason: string) {
    super(`${JSON.stringify(text)} is not a valid amount at scale ${scale}: ${reason}`);
    this.name = 'InvalidUnitsError';
  }
}

/** Parses plain decimal text into units; more fraction digits than the scale allows is an error. */
export function parseUnits(text: string, scale: number): bigint {
  const match = UNIT_TEXT.exec(text);
  if (!match) throw new InvalidUnitsError(text, scale, 'not a plain non-negative decimal');
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > scale) throw new InvalidUnitsError(text, scale, `more than ${scale} decimals`);
  return BigInt(match[1]) * pow10(scale) + BigInt(fraction.padEnd(scale, '0') || '0');
}
