const MARK = '\u0001';
const MARKED_NUMBER = /"\\u0001(-?\d+(?:\.\d+)?)"/g;

/**
 * A decimal written into JSON as a bare number with exactly this text, as the exchange writes its
 * prices and amounts (JSON numbers, never strings), without ever passing through a float.
 */
export class JsonNumber {
  constructor(readonly text: string) {}

  toJSON(): string {
    return MARK + this.text;
  }
}

/** JSON.stringify that writes every JsonNumber as a bare number. */
export function toJson(value: unknown): string {
  return JSON.stringify(value).replace(MARKED_NUMBER, '$1');
}
