import { ApiError } from './api-error';

const SMALL_INTEGER = /^\d{1,9}$/;

/** A non-negative integer parameter; `fallback` when absent; 400 for anything else. */
export function integerParam(value: unknown, name: string, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  if (typeof value !== 'string' || !SMALL_INTEGER.test(value)) {
    throw ApiError.badRequest(`invalid_${name}`, `${name} must be a non-negative integer`);
  }
  return Number(value);
}

/** Aggregators' `depth`: 0 or absent for the full book, else an even N for N/2 levels per side. */
export function depthParam(value: unknown): number {
  const depth = integerParam(value, 'depth', 0);
  if (depth % 2 !== 0)
    throw ApiError.badRequest('invalid_depth', 'depth must be 0 (full book) or an even number');
  return depth / 2;
}

/** `level`: 1 for the best bid and ask only, 2 (the default) for every price level. */
export function levelParam(value: unknown): 1 | 2 {
  const level = integerParam(value, 'level', 2);
  if (level !== 1 && level !== 2) {
    throw ApiError.badRequest('invalid_level', 'level must be 1 (best bid and ask) or 2 (every price level)');
  }
  return level;
}
