/** A parsed JSON value in which every number is the exact text the sender wrote. */
export type ExactJson = string | boolean | null | ExactJson[] | { [key: string]: ExactJson };

/**
 * One token of the text that matters here: a whole string literal (left alone), a quote that opens no
 * closed string, or a number of JSON's grammar with, when a colon follows it, that colon (a number
 * used as an object key).
 */
const TOKEN = /"(?:[^"\\]|\\[\s\S])*"|(")|(-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)([ \t\n\r]*:)?/g;

/**
 * Parses JSON without passing numbers through binary floating point: each number becomes the string
 * of its digits, so that a price like 0.1 or an 18-decimal amount keeps every digit.
 * Throws a SyntaxError on malformed input. A repeated key keeps its last value, as in JSON.parse.
 *
 * Every number outside a string literal is put in quotes, then the native JSON.parse reads the text,
 * several times faster than a parser written in JavaScript. Quoting turns no malformed text into
 * JSON: string literals are matched whole (an unclosed one is rejected first), and a number stands
 * wherever a string may, except as an object key, which is rejected too.
 */
export function parseExactJson(text: string): ExactJson {
  const quoted = text.replace(TOKEN, quoteNumber);
  return JSON.parse(quoted) as ExactJson;
}

function quoteNumber(
  token: string,
  strayQuote?: string,
  number?: string,
  colon?: string,
  offset?: number,
): string {
  if (number === undefined) {
    if (strayQuote !== undefined) throw new SyntaxError(`Unterminated string in JSON at position ${offset}`);
    return token;
  }
  if (colon !== undefined) throw new SyntaxError(`A number as an object key in JSON at position ${offset}`);
  return `"${number}"`;
}

export function isJsonObject(value: ExactJson | undefined): value is { [key: string]: ExactJson } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
