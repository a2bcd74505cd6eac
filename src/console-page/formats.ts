/**
 * How the pages write figures, the same everywhere: a price or an amount as the API's own text
 * (never a number printed again), a sum of money grouped with its unit, a dollar worth as an
 * estimate to the whole dollar.
 */

/** `850 ms`, `12.3 s`, `4 min`, `2 h`; a dash when unknown. */
export function age(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(1)} s`;
  if (ms < 3_600_000) return `${Math.floor(ms / 60_000)} min`;
  if (ms < 172_800_000) return `${Math.floor(ms / 3_600_000)} h`;
  return `${Math.floor(ms / 86_400_000)} d`;
}

/**
 * A decimal's text with its whole part grouped in thousands, the rest untouched:
 * `27945204.74` → `27,945,204.74`.
 */
export function grouped(value: string): string {
  const point = value.indexOf('.');
  const whole = point < 0 ? value : value.slice(0, point);
  return whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',') + (point < 0 ? '' : value.slice(point));
}

/** An exact sum of money or of an asset, grouped, with its unit: `27,945,204.74 USDT`. */
export function money(value: string | null | undefined, unit: string): string {
  return value === null || value === undefined ? '—' : `${grouped(value)} ${unit}`;
}

/**
 * A non-negative US-dollar worth, which a reference price made (an estimate), to the whole dollar
 * rounded half up and grouped: `≈ $27,945,205`.
 */
export function usdEstimate(value: string | null | undefined): string {
  if (value === null || value === undefined) return '—';
  const [whole, fraction = ''] = value.split('.');
  const rounded = fraction.charAt(0) >= '5' ? (BigInt(whole) + 1n).toString() : whole;
  return `≈ $${grouped(rounded)}`;
}

/** Decimal text as given (exact), a dash when absent. */
export function decimal(value: string | null | undefined): string {
  return value === null || value === undefined ? '—' : value;
}

/** `14:03:07` in the reader's time zone. */
export function clock(time: number): string {
  return new Date(time).toLocaleTimeString(undefined, { hour12: false });
}
