/**
 * Decimals held as a whole number of units and a scale, `27000.5` as 270005 units at scale 1, with
 * plain numbers: exact while the units stay below 2^53, which the callers check.
 */

/** 10^k for the k whose power a double holds exactly. */
const EXACT_POWERS: readonly number[] = Array.from({ length: 23 }, (_, k) => Number(`1e${k}`));
/** A product past 2^53 is held as two limbs of this base: `high * LIMB + low`. */
const LIMB_DIGITS = 8;
const LIMB = EXACT_POWERS[LIMB_DIGITS];

const ZEROS: readonly string[] = Array.from({ length: 24 }, (_, k) => '0'.repeat(k));

/** `units` with `scale` of them after the point: 270005 and 1 give `27000.5`, 25 and 3 `0.025`. */
export function unitsText(units: number, scale: number): string {
  const power = EXACT_POWERS[scale];
  if (scale === 0 || power === undefined) return digitsText(String(units), scale);
  // Two short number texts: about twice as fast to build and to send as slices of one.
  const fraction = units % power;
  const fractionText = String(fraction);
  const zeros = ZEROS[scale - fractionText.length] ?? '';
  return `${(units - fraction) / power}.${zeros}${fractionText}`;
}

/**
 * Non-negative `units` at `scale` as text with exactly `target` decimals, as `formatFixed` gives it:
 * padded with zeros, or rounded half away from zero.
 */
export function unitsAtScale(units: number, scale: number, target: number): string {
  if (scale <= target) return withZeros(unitsText(units, scale), scale, target);
  const divisor = EXACT_POWERS[scale - target];
  // Units below 2^53 are below 10^16: past 10^22 they round to nothing.
  if (divisor === undefined) return unitsText(0, target);
  const remainder = units % divisor;
  const quotient = (units - remainder) / divisor;
  return unitsText(2 * remainder >= divisor ? quotient + 1 : quotient, target);
}

/**
 * The product of two non-negative unit counts as text at `target` decimals (see unitsAtScale), or
 * undefined when it is too large for two limbs of doubles (the smaller factor past about 9 * 10^7).
 */
export function productAtScale(
  units: number,
  scale: number,
  otherUnits: number,
  otherScale: number,
  target: number,
): string | undefined {
  const product = units * otherUnits;
  if (product <= Number.MAX_SAFE_INTEGER) return unitsAtScale(product, scale + otherScale, target);
  const small = Math.min(units, otherUnits);
  const large = Math.max(units, otherUnits);
  const largeLow = large % LIMB;
  const lowProduct = small * largeLow;
  const highProduct = small * ((large - largeLow) / LIMB);
  if (!(lowProduct <= Number.MAX_SAFE_INTEGER && highProduct <= Number.MAX_SAFE_INTEGER)) return undefined;
  const low = lowProduct % LIMB;
  const high = highProduct + (lowProduct - low) / LIMB;
  if (!(high <= Number.MAX_SAFE_INTEGER)) return undefined;
  return limbsAtScale(high, low, scale + otherScale, target);
}

/** `high * LIMB + low` units at `scale` (high at least 1) as text at `target` decimals, rounded half up. */
function limbsAtScale(high: number, low: number, scale: number, target: number): string {
  const dropped = scale - target;
  if (dropped <= 0)
    return withZeros(digitsText(String(high) + String(low).padStart(LIMB_DIGITS, '0'), scale), scale, target);
  if (dropped <= LIMB_DIGITS) {
    const divisor = EXACT_POWERS[dropped];
    const width = LIMB_DIGITS - dropped;
    const remainder = low % divisor;
    let kept = (low - remainder) / divisor + (2 * remainder >= divisor ? 1 : 0);
    let top = high;
    if (kept === EXACT_POWERS[width]) {
      top += 1;
      kept = 0;
    }
    if (width === 0) return unitsText(top, target);
    return digitsText(String(top) + String(kept).padStart(width, '0'), target);
  }
  // The low limb cannot tip the rounding: half of an even power of ten is a whole number of high units.
  const divisor = EXACT_POWERS[dropped - LIMB_DIGITS];
  if (divisor === undefined) return unitsText(0, target);
  const remainder = high % divisor;
  const quotient = (high - remainder) / divisor;
  return unitsText(2 * remainder >= divisor ? quotient + 1 : quotient, target);
}

/** Integer digits (no leading zeros) with `scale` of them after the point. */
function digitsText(digits: string, scale: number): string {
  if (scale === 0) return digits;
  const padded = digits.length > scale ? digits : '0'.repeat(scale - digits.length + 1) + digits;
  return `${padded.slice(0, padded.length - scale)}.${padded.slice(padded.length - scale)}`;
}

/** `text` with `scale` decimals padded with zeros to `target` decimals. */
function withZeros(text: string, scale: number, target: number): string {
  if (scale === target) return text;
  return (scale === 0 ? `${text}.` : text) + '0'.repeat(target - scale);
}
