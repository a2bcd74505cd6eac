/**
 * Fixed-point decimals of the sandbox: an integer count of 10^-scale units in a bigint, exact at any
 * scale (the exchange allows up to 18 decimals).
 */

const CACHED_POWERS = Array.from({ length: 19 }, (_, exponent) => 10n ** BigInt(exponent));

export function pow10(exponent: number): bigint {
  if (!Number.isSafeInteger(exponent) || exponent < 0)
    throw new RangeError(`10^${exponent}: the exponent must be a whole number from 0`);
  return CACHED_POWERS[exponent] ?? 10n ** BigInt(exponent);
}

/** Plain text of `units` × 10^-scale: no exponent, no trailing zeros ("0.5", "12"), "-" first below zero. */
export function formatUnits(units: bigint, scale: number): string {
  const unit = pow10(scale);
  const magnitude = units < 0n ? -units : units;
  const whole = (magnitude / unit).toString();
  const fraction = (magnitude % unit).toString().padStart(scale, '0').replace(/0+$/, '');
  const text = fraction === '' ? whole : `${whole}.${fraction}`;
  return units < 0n ? `-${text}` : text;
}
