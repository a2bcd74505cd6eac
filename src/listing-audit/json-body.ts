import { isLosslessNumber, LosslessNumber, parse, stringify } from 'lossless-json';

/**
 * A JSON body parsed so that every number keeps the text it was written with: the checks must tell
 * `1e-7` from `0.0000001`, and a 19-digit trade id must not round.
 */
export type JsonValue = string | boolean | null | LosslessNumber | JsonValue[] | { [key: string]: JsonValue };

export function parseJsonBody(text: string): JsonValue {
  return parse(text) as JsonValue;
}

export function isJsonNumber(value: unknown): value is LosslessNumber {
  return isLosslessNumber(value);
}

export function isJsonObject(value: unknown): value is { [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !isLosslessNumber(value);
}

/** A value as it was written, for a report: numbers as their JSON text, strings quoted. */
export function shown(value: unknown): string {
  if (isLosslessNumber(value)) return value.value;
  if (value === undefined) return 'absent';
  const text = stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
