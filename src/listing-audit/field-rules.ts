import { fail, Finding, warn } from './audit-finding';
import { isJsonNumber, isJsonObject, JsonValue, shown } from './json-body';

/**
 * The forms a field may take in the aggregator formats, and the check of one record against its
 * rules. Which check a problem belongs to follows from what is wrong: a missing field, a key in
 * another letter case, a decimal not written as a plain string, or any other type or form.
 */
export type FieldKind =
  /** A non-negative decimal as a string in plain notation. */
  | 'decimal'
  /** A decimal that may be negative (a percent change). */
  | 'signed-decimal'
  /** Digits in a string: ids and Unix times where the format writes every value as a string. */
  | 'digits-text'
  /** A JSON integer: ids where the format says integer. */
  | 'integer'
  /** Unix milliseconds as a JSON integer or a string of digits (the formats' samples use both). */
  | 'unix-ms'
  /** "0" or "1" as a string. */
  | 'flag-text'
  /** 0 or 1 as a JSON integer; the strings "0" and "1" only warn. */
  | 'flag-integer'
  /** A JSON boolean; the strings "true" and "false" only warn. */
  | 'boolean'
  /** `buy` or `sell`. */
  | 'side'
  /** An upper-case asset symbol. */
  | 'symbol'
  /** Any non-empty string. */
  | 'text'
  /** A JSON array (its items are checked by the reader of the record). */
  | 'array';

export interface FieldRule {
  readonly key: string;
  readonly kind: FieldKind;
  readonly required: boolean;
}

export function required(key: string, kind: FieldKind): FieldRule {
  return { key, kind, required: true };
}

export function optional(key: string, kind: FieldKind): FieldRule {
  return { key, kind, required: false };
}

const PLAIN_DECIMAL = /^\d+(\.\d+)?$/;
const SIGNED_DECIMAL = /^-?\d+(\.\d+)?$/;
const EXPONENT = /^-?(\d+\.?\d*|\.\d+)[eE][+-]?\d+$/;
const DIGITS = /^\d+$/;
const SYMBOL = /^[A-Z0-9]+$/;

/** The key without letter case, `_` or `-`: `is_frozen` and `isfrozen` are `isFrozen` written otherwise. */
function looseKey(key: string): string {
  return key.toLowerCase().replace(/[_-]/g, '');
}

export function checkRecord(record: JsonValue, rules: readonly FieldRule[], where: string): Finding[] {
  if (!isJsonObject(record)) return [fail('field-types', where, `expected an object, got ${shown(record)}`)];
  const findings: Finding[] = [];
  for (const rule of rules) {
    const at = `${where}.${rule.key}`;
    if (!(rule.key in record)) {
      const other = Object.keys(record).find((key) => looseKey(key) === looseKey(rule.key));
      if (other !== undefined)
        findings.push(fail('key-case', at, `written "${other}", the format names it "${rule.key}"`));
      else if (rule.required) findings.push(fail('required-fields', at, 'missing'));
      continue;
    }
    findings.push(...checkValue(record[rule.key], rule.kind, at));
  }
  return findings;
}

export function checkValue(value: JsonValue | undefined, kind: FieldKind, where: string): Finding[] {
  switch (kind) {
    case 'decimal':
    case 'signed-decimal':
      return checkDecimal(value, where, kind);
    case 'digits-text':
      if (typeof value === 'string' && DIGITS.test(value)) return [];
      return [fail('field-types', where, `expected a string of digits, got ${shown(value)}`)];
    case 'integer':
      if (isJsonNumber(value) && DIGITS.test(value.value)) return [];
      if (typeof value === 'string' && DIGITS.test(value))
        return [fail('field-types', where, `expected a JSON integer, got the string ${shown(value)}`)];
      return [fail('field-types', where, `expected a JSON integer, got ${shown(value)}`)];
    case 'unix-ms':
      if (
        (isJsonNumber(value) && DIGITS.test(value.value)) ||
        (typeof value === 'string' && DIGITS.test(value))
      )
        return [];
      return [fail('field-types', where, `expected Unix milliseconds, got ${shown(value)}`)];
    case 'flag-text':
      if (value === '0' || value === '1') return [];
      return [fail('field-types', where, `expected "0" or "1", got ${shown(value)}`)];
    case 'flag-integer':
      if (isJsonNumber(value) && (value.value === '0' || value.value === '1')) return [];
      if (value === '0' || value === '1')
        return [
          warn('field-types', where, `a string ${shown(value)} where the format has the integer 0 or 1`),
        ];
      return [fail('field-types', where, `expected 0 or 1, got ${shown(value)}`)];
    case 'boolean':
      if (typeof value === 'boolean') return [];
      if (value === 'true' || value === 'false')
        return [warn('field-types', where, `a string ${shown(value)} where a JSON boolean is clearer`)];
      return [fail('field-types', where, `expected a boolean, got ${shown(value)}`)];
    case 'side':
      if (value === 'buy' || value === 'sell') return [];
      return [fail('field-types', where, `expected "buy" or "sell", got ${shown(value)}`)];
    case 'symbol':
      if (typeof value === 'string' && SYMBOL.test(value)) return [];
      return [fail('field-types', where, `expected an upper-case symbol, got ${shown(value)}`)];
    case 'text':
      if (typeof value === 'string' && value !== '') return [];
      return [fail('field-types', where, `expected a non-empty string, got ${shown(value)}`)];
    case 'array':
      if (Array.isArray(value)) return [];
      return [fail('field-types', where, `expected an array, got ${shown(value)}`)];
  }
}

export function checkDecimal(
  value: JsonValue | undefined,
  where: string,
  kind: 'decimal' | 'signed-decimal' = 'decimal',
): Finding[] {
  if (isJsonNumber(value))
    return [fail('decimal-strings', where, `the JSON number ${value.value}, not a decimal string`)];
  if (typeof value !== 'string')
    return [fail('decimal-strings', where, `expected a decimal string, got ${shown(value)}`)];
  if (EXPONENT.test(value)) return [fail('decimal-strings', where, `exponent notation "${value}"`)];
  if ((kind === 'signed-decimal' ? SIGNED_DECIMAL : PLAIN_DECIMAL).test(value)) return [];
  if (SIGNED_DECIMAL.test(value)) return [fail('decimal-strings', where, `negative "${value}"`)];
  return [fail('decimal-strings', where, `not a plain decimal: ${shown(value)}`)];
}

/** The field's text when it is a valid plain decimal, for the arithmetic checks; else undefined. */
export function decimalField(record: JsonValue | undefined, key: string): string | undefined {
  if (!isJsonObject(record)) return undefined;
  const value = record[key];
  return typeof value === 'string' && PLAIN_DECIMAL.test(value) ? value : undefined;
}

export function isPlainDecimal(value: unknown): value is string {
  return typeof value === 'string' && PLAIN_DECIMAL.test(value);
}
