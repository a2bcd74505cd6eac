/** How the pages write figures: short, and the same everywhere. */

/** `850 ms`, `12.3 s`, `4 min`, `2 h`; a dash when unknown. */
export function age(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(1)} s`;
  if (ms < 3_600_000) return `${Math.floor(ms / 60_000)} min`;
  if (ms < 172_800_000) return `${Math.floor(ms / 3_600_000)} h`;
  return `${Math.floor(ms / 86_400_000)} d`;
}

/** A dollar amount given as decimal text, grouped in thousands: `$12,345`. */
export function usd(value: string | null | undefined): string {
  if (value === null || value === undefined) return '—';
  const whole = value.split('.')[0];
  return `$${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}`;
}

/** Decimal text as given (exact), a dash when absent. */
export function decimal(value: string | null | undefined): string {
  return value === null || value === undefined ? '—' : value;
}

/** `14:03:07` in the reader's time zone. */
export function clock(time: number): string {
  return new Date(time).toLocaleTimeString(undefined, { hour12: false });
}
