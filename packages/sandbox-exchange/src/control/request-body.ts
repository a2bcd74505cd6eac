import { ExchangeError } from '../rest/exchange-error';

export type JsonObject = Readonly<Record<string, unknown>>;

/** The body as a JSON object, or a 400 naming what was sent instead. */
export function jsonObject(body: unknown): JsonObject {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    const got = body === undefined ? 'nothing' : Array.isArray(body) ? 'an array' : JSON.stringify(body);
    throw ExchangeError.badRequest(`body: must be a JSON object, got ${got}`);
  }
  return body as JsonObject;
}

/** 400 for fields a body must not carry, so that a misspelt field is not silently ignored. */
export function rejectUnknownFields(body: JsonObject, known: readonly string[]): void {
  const unknown = Object.keys(body).filter((key) => !known.includes(key));
  if (unknown.length > 0)
    throw ExchangeError.badRequest(
      unknown.map((key) => `${key}: unknown field; expected ${known.join(', ')}`),
    );
}

/** A number field within [min, max]; `integer` also requires a whole number. */
export function numberField(
  body: JsonObject,
  name: string,
  rule: { readonly min: number; readonly max: number; readonly integer?: boolean },
): number {
  const value = body[name];
  const kind = rule.integer ? 'an integer' : 'a number';
  const valid =
    typeof value === 'number' &&
    Number.isFinite(value) &&
    value >= rule.min &&
    value <= rule.max &&
    (!rule.integer || Number.isInteger(value));
  if (!valid) {
    const got = value === undefined ? 'nothing' : JSON.stringify(value);
    throw ExchangeError.badRequest(`${name}: must be ${kind} from ${rule.min} to ${rule.max}, got ${got}`);
  }
  return value;
}
