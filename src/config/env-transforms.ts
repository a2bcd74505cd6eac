import { Transform } from 'class-transformer';

/** Parses `true`/`false` (any case, also `1`/`0`); leaves anything else for the validator to reject. */
export function EnvBoolean(): PropertyDecorator {
  return Transform(({ value }) => {
    if (typeof value !== 'string') return value;
    const normalized = value.trim().toLowerCase();
    if (normalized === 'true' || normalized === '1') return true;
    if (normalized === 'false' || normalized === '0') return false;
    return value;
  });
}

/** Parses a base-10 number; a non-numeric string becomes NaN so that the validator names the key. */
export function EnvNumber(): PropertyDecorator {
  return Transform(({ value }) => {
    if (typeof value !== 'string') return value;
    return value.trim() === '' ? Number.NaN : Number(value);
  });
}
