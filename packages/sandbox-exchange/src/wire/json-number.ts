/** JSON's number grammar (RFC 8259, section 6). */
const JSON_NUMBER_TEXT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** JSON.rawJSON (Node 21+): JSON.stringify writes such a value's text verbatim. TypeScript's lib lacks it. */
const rawJson = (text: string): object =>
  (JSON as unknown as { rawJSON(text: string): object }).rawJSON(text);

/**
 * A decimal written into JSON as a bare number with exactly this text, as the exchange writes prices
 * and amounts, without ever becoming a float.
 */
export class JsonNumber {
  constructor(readonly text: string) {
    if (!JSON_NUMBER_TEXT.test(text)) throw new RangeError(`${JSON.stringify(text)} is not a JSON number`);
  }

  toJSON(): object {
    return rawJson(this.text);
  }
}

/** JSON.stringify that writes every JsonNumber as a bare number. */
export function toJson(value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError(`${typeof value} has no JSON text`);
  return text;
}
