/**
 * Readers of one environment value each: the parsed value, or the reason it is refused, worded as the
 * gateway words its own settings so that an operator reads one style.
 */
export type Reading<T> = { readonly value: T } | { readonly problem: string };
export type SettingReader<T> = (text: string) => Reading<T>;

export function integer(min: number, max?: number, unit = ''): SettingReader<number> {
  const problem = `must be an integer${unit}${range(min, max)}`;
  return (text) => {
    const value = Number(text);
    return Number.isInteger(value) && value >= min && (max === undefined || value <= max)
      ? { value }
      : { problem };
  };
}

export function port(): SettingReader<number> {
  const read = integer(0, 65535);
  return (text) => {
    const reading = read(text);
    return 'value' in reading ? reading : { problem: 'must be an integer port number from 0 to 65535' };
  };
}

/** A number of `unit` from `min` to `max`, fractions allowed. */
export function numberOf(unit: string, min: number, max: number): SettingReader<number> {
  const problem = `must be a number of ${unit}${range(min, max)}`;
  return (text) => {
    const value = Number(text);
    return Number.isFinite(value) && value >= min && value <= max ? { value } : { problem };
  };
}

/** `true` or `false` in any case; `1` and `0` are read as the same. */
export function flag(): SettingReader<boolean> {
  return (text) => {
    const normalized = text.toLowerCase();
    if (normalized === 'true' || normalized === '1') return { value: true };
    if (normalized === 'false' || normalized === '0') return { value: false };
    return { problem: 'must be true or false' };
  };
}

export function oneOf<T extends string>(values: readonly T[]): SettingReader<T> {
  const problem = `must be one of ${values.join(', ')}`;
  return (text) => ((values as readonly string[]).includes(text) ? { value: text as T } : { problem });
}

/** Any non-empty text: a host name, a file path (read and checked where it is used). */
export function text(): SettingReader<string> {
  return (value) => ({ value });
}

function range(min: number, max: number | undefined): string {
  return max === undefined ? `, ${min} or more` : ` from ${min} to ${max}`;
}
