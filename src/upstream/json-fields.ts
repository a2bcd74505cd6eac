import { canonicalDecimal, plainCanonicalDecimal } from '../market/decimal';
import { ExactJson, isJsonObject } from './exact-json';
import { previewJson } from './json-preview';
import { MalformedBodyError } from './malformed-body-error';

/** A field of a response body that breaks its rule; `path` locates it, e.g. `pairs.btc_usdt.minAmount`. */
export class FieldError extends Error {
  constructor(
    readonly path: string,
    expectation: string,
    value: ExactJson | undefined,
  ) {
    super(`${path}: expected ${expectation}, got ${previewJson(value)}`);
    this.name = 'FieldError';
  }
}

const INTEGER = /^-?\d+$/;
/** Exponents beyond this are no market value and would expand into huge plain-notation text. */
const MAX_EXPONENT = 100;
const EXPONENT = /[eE]([+-]?\d+)$/;

/**
 * Typed reading of one JSON object of a response body. Numbers arrive as their exact text (see
 * parseExactJson), so a JSON number and a string holding the same digits read alike, which is what
 * the exchange's mix of number and string encodings needs.
 */
export class JsonFields {
  private constructor(
    private readonly fields: { readonly [key: string]: ExactJson },
    readonly path: string,
  ) {}

  /** `value` as an object, or a FieldError naming `path`. */
  static of(value: ExactJson | undefined, path: string): JsonFields {
    if (!isJsonObject(value)) throw new FieldError(path, 'an object', value);
    return new JsonFields(value, path);
  }

  has(key: string): boolean {
    return this.fields[key] !== undefined && this.fields[key] !== null;
  }

  entries(): [string, ExactJson][] {
    return Object.entries(this.fields);
  }

  raw(key: string): ExactJson | undefined {
    return this.fields[key];
  }

  at(key: string): string {
    return this.path === '' ? key : `${this.path}.${key}`;
  }

  object(key: string): JsonFields {
    return JsonFields.of(this.fields[key], this.at(key));
  }

  array(key: string): readonly ExactJson[] {
    const value = this.fields[key];
    if (!Array.isArray(value)) throw new FieldError(this.at(key), 'an array', value);
    return value;
  }

  /** A non-empty string (or number text). */
  string(key: string): string {
    const value = this.fields[key];
    if (typeof value !== 'string' || value.trim() === '')
      throw new FieldError(this.at(key), 'a non-empty string', value);
    return value;
  }

  /** A non-negative decimal, number or string, as canonical text. */
  decimal(key: string): string {
    return readDecimal(this.fields[key], this.at(key));
  }

  /** An integer within [min, max]. */
  integer(key: string, min: number, max: number): number {
    const value = this.fields[key];
    const number = typeof value === 'string' && INTEGER.test(value) ? Number(value) : NaN;
    if (!Number.isSafeInteger(number) || number < min || number > max) {
      throw new FieldError(this.at(key), `an integer from ${min} to ${max}`, value);
    }
    return number;
  }

  /** A boolean; the exchange also writes flags as 0 and 1. */
  flag(key: string): boolean {
    const value = this.fields[key];
    if (value === true || value === '1') return true;
    if (value === false || value === '0') return false;
    throw new FieldError(this.at(key), 'true, false, 0 or 1', value);
  }
}

/** A non-negative decimal (JSON number or string) as canonical text, or a FieldError naming `path`. */
export function readDecimal(value: ExactJson | undefined, path: string): string {
  const text = decimalText(value);
  if (text === undefined) throw new FieldError(path, 'a non-negative decimal number', value);
  return text;
}

/** What `readDecimal` reads, or undefined where it would throw: for hot paths that name the place only on failure. */
export function decimalText(value: ExactJson | undefined): string | undefined {
  if (typeof value !== 'string') return undefined;
  const plain = plainCanonicalDecimal(value);
  if (plain !== undefined) return plain;
  const exponent = EXPONENT.exec(value);
  if (exponent && Math.abs(Number(exponent[1])) > MAX_EXPONENT) return undefined;
  try {
    return canonicalDecimal(value);
  } catch {
    return undefined;
  }
}

/** Gathers the FieldErrors of several reads, so that one MalformedBodyError can list them all. */
export class FieldProblems {
  readonly messages: string[] = [];

  add(error: FieldError): void {
    this.messages.push(error.message);
  }

  /** The value `read` returns, or undefined after noting its FieldError; other errors pass through. */
  read<T>(read: () => T): T | undefined {
    try {
      return read();
    } catch (error) {
      if (!(error instanceof FieldError)) throw error;
      this.add(error);
      return undefined;
    }
  }

  throwIfAny(what: string): void {
    if (this.messages.length > 0) throw new MalformedBodyError(what, this.messages);
  }
}
