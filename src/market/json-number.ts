/** `JSON.rawJSON` (Node.js 21 and later): JSON.stringify writes such a value's text verbatim. TypeScript's lib lacks it. */
const rawJson = (text: string): object => (JSON as unknown as { rawJSON(text: string): object }).rawJSON(text);

/**
 * A decimal written into JSON as a bare number with exactly this text, as the exchange writes its
 * prices and amounts (JSON numbers, never strings), without ever passing through a float.
 */
export class JsonNumber {
  constructor(readonly text: string) {}

  toJSON(): object {
    return rawJson(this.text);
  }
}

// `JSON.rawJSON` takes a primitive only: a list is written as a marked string, unmarked by `toJson`.
const LIST_MARK = '\u0002';
const MARKED_LIST = /"\\u0002([\d.,-]*)"/g;

/**
 * Decimals written into JSON as one array of bare numbers with exactly these texts: one string for
 * the whole list, so that a year of chart bars is written without an object for each figure.
 */
export class JsonNumberList {
  constructor(readonly texts: readonly string[]) {}

  toJSON(): string {
    return LIST_MARK + this.texts.join(',');
  }
}

/** JSON.stringify that writes every JsonNumber and JsonNumberList as bare numbers. */
export function toJson(value: unknown): string {
  return JSON.stringify(value).replace(MARKED_LIST, '[$1]');
}
