/**
 * Fixed-point decimals: an integer count of 10^-scale units held in a bigint, exact at any scale.
 * The trade window keeps its running sums so.
 */

const POWERS: bigint[] = Array.from({ length: 40 }, (_, i) => 10n ** BigInt(i));

export function pow10(exponent: number): bigint {
  return POWERS[exponent] ?? 10n ** BigInt(exponent);
}

/** Canonical plain text of units at a scale: no exponent, no trailing zeros ("0.5", "12"), "-" first below zero. */
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
