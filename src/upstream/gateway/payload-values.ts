import { unixMsFromDotNetTicks } from '../../market/dotnet-ticks';
import { FieldError, JsonFields, readDecimal } from '../json-fields';
import { ExactJson, isJsonObject } from '../exact-json';
import { GatewayPayloadError } from './gateway-payload-error';
import { previewJson } from '../json-preview';

const INTEGER = /^-?\d+$/;
/** Below this a timestamp is Unix milliseconds (year 33658); at or above it, .NET ticks. */
const TICKS_FROM = 1e15;

/**
 * An object of a gateway payload with its keys in PascalCase, so that the camelCase keys of older
 * gateway versions (`instrumentId`) read like the current ones (`InstrumentId`). A key already in
 * PascalCase wins over its camelCase twin.
 */
export function pascalCaseFields(value: ExactJson | undefined, path: string): JsonFields {
  if (!isJsonObject(value)) return JsonFields.of(value, path);
  const normalized: { [key: string]: ExactJson } = {};
  for (const [key, field] of Object.entries(value)) {
    const pascal = key.charAt(0).toUpperCase() + key.slice(1);
    if (pascal === key || !(pascal in value)) normalized[pascal] = field;
  }
  return JsonFields.of(normalized, path);
}

/** A positional row (an array) with at least `length` elements. */
export function positionalRow(
  value: ExactJson | undefined,
  path: string,
  length: number,
): readonly ExactJson[] {
  if (!Array.isArray(value) || value.length < length)
    throw new FieldError(path, `an array of at least ${length} values`, value);
  return value;
}

/**
 * The number a payload value holds, NaN for anything but number text: Number() of an array would
 * join it recursively, which a payload nested deep enough turns into a stack overflow.
 */
export function numberOf(value: ExactJson | undefined): number {
  return typeof value === 'string' ? Number(value) : NaN;
}

/** An integer within [min, max], written as a JSON number or a string of digits. */
export function readInteger(
  value: ExactJson | undefined,
  path: string,
  min = 0,
  max = Number.MAX_SAFE_INTEGER,
): number {
  const number = typeof value === 'string' && INTEGER.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(number) || number < min || number > max)
    throw new FieldError(path, `an integer from ${min} to ${max}`, value);
  return number;
}

/** An id that may exceed 2^53, kept as canonical integer text ("007" becomes "7"). */
export function readIntegerText(value: ExactJson | undefined, path: string): string {
  if (typeof value !== 'string' || !/^\d+$/.test(value))
    throw new FieldError(path, 'a non-negative integer', value);
  return value.replace(/^0+(?=\d)/, '');
}

/** A decimal above zero, as canonical text. */
export function readPositiveDecimal(value: ExactJson | undefined, path: string): string {
  const text = readDecimal(value, path);
  if (text === '0') throw new FieldError(path, 'a decimal above zero', value);
  return text;
}

/**
 * Unix milliseconds of a timestamp the gateway writes either as Unix milliseconds or as .NET ticks
 * (100 ns since 0001-01-01): the public trade rows use the first, the account events the second.
 */
export function readTimestampMs(value: ExactJson | undefined, path: string): number {
  if (typeof value === 'string' && /^\d+$/.test(value) && Number(value) >= TICKS_FROM) {
    const ms = unixMsFromDotNetTicks(value);
    if (ms !== undefined && ms >= 0) return ms;
  }
  return readInteger(value, path);
}

/** Runs the reads of one payload, gathering every FieldError into one GatewayPayloadError. */
export class PayloadProblems {
  private readonly messages: string[] = [];

  constructor(private readonly what: string) {}

  /** The value `read` returns, or undefined after noting its FieldError; other errors pass through. */
  read<T>(read: () => T): T | undefined {
    try {
      return read();
    } catch (error) {
      if (!(error instanceof FieldError)) throw error;
      this.messages.push(error.message);
      return undefined;
    }
  }

  fail(problem: string): never {
    throw new GatewayPayloadError(this.what, [...this.messages, problem]);
  }

  throwIfAny(): void {
    if (this.messages.length > 0) throw new GatewayPayloadError(this.what, this.messages);
  }
}

/** The payload as an array, or a GatewayPayloadError. */
export function payloadArray(payload: ExactJson | undefined, what: string): readonly ExactJson[] {
  if (!Array.isArray(payload)) {
    const got = previewJson(payload);
    throw new GatewayPayloadError(what, [`expected an array, got ${got}`]);
  }
  return payload;
}
