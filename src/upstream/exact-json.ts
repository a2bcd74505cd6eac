import {
  QUOTE,
  BACKSLASH,
  COMMA,
  COLON,
  MINUS,
  OPEN_BRACE,
  CLOSE_BRACE,
  OPEN_BRACKET,
  CLOSE_BRACKET,
  isDigit,
} from './json-char-codes';
import { jsonNumberEnd } from './json-number-end';

/** A parsed JSON value in which every number is the exact text the sender wrote. */
export type ExactJson = string | boolean | null | ExactJson[] | { [key: string]: ExactJson };

/**
 * Parses JSON without passing numbers through binary floating point: each number becomes the string
 * of its digits, so that a price like 0.1 or an 18-decimal amount keeps every digit.
 * Throws a SyntaxError on malformed input. A repeated key keeps its last value, as in JSON.parse.
 */
export function parseExactJson(text: string): ExactJson {
  try {
    return parser.parse(text);
  } finally {
    parser.release();
  }
}

export function isJsonObject(value: ExactJson | undefined): value is { [key: string]: ExactJson } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Arrays and objects nested deeper are rejected as a SyntaxError rather than overflowing the stack. */
const MAX_DEPTH = 1000;

/**
 * A recursive-descent reader of JSON's grammar (RFC 8259) over char codes: strings without escapes are
 * sliced from the text, strings with escapes are decoded by JSON.parse, numbers are sliced as they are.
 * It makes no intermediate text and few calls, which is what made the general-purpose parsers it
 * replaces (lossless-json, or quoting the numbers for JSON.parse) cost several times JSON.parse.
 */
class ExactJsonParser {
  private text = '';
  private at = 0;
  private depth = 0;

  parse(text: string): ExactJson {
    this.text = text;
    this.at = 0;
    this.depth = 0;
    const value = this.value();
    this.skipWhitespace();
    if (this.at < this.text.length) this.fail('end of input');
    return value;
  }

  /** Lets go of the text. */
  release(): void {
    this.text = '';
  }

  private value(): ExactJson {
    this.skipWhitespace();
    const code = this.text.charCodeAt(this.at);
    if (code === QUOTE) return this.string();
    if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      if (++this.depth > MAX_DEPTH) this.fail(`at most ${MAX_DEPTH} nested arrays and objects`);
      const nested = code === OPEN_BRACE ? this.object() : this.array();
      this.depth--;
      return nested;
    }
    if (code === MINUS || isDigit(code)) return this.number();
    if (this.text.startsWith('true', this.at)) return this.literal(4, true);
    if (this.text.startsWith('false', this.at)) return this.literal(5, false);
    if (this.text.startsWith('null', this.at)) return this.literal(4, null);
    return this.fail('a value');
  }

  private literal<T>(length: number, value: T): T {
    this.at += length;
    return value;
  }

  private object(): { [key: string]: ExactJson } {
    this.at++;
    const object: { [key: string]: ExactJson } = {};
    this.skipWhitespace();
    if (this.text.charCodeAt(this.at) === CLOSE_BRACE) {
      this.at++;
      return object;
    }
    for (;;) {
      this.skipWhitespace();
      if (this.text.charCodeAt(this.at) !== QUOTE) this.fail('a quoted key');
      const key = this.string();
      this.skipWhitespace();
      if (this.text.charCodeAt(this.at) !== COLON) this.fail("':'");
      this.at++;
      const value = this.value();
      if (key === '__proto__') {
        // An own property, as JSON.parse makes it, rather than the prototype setter.
        Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
      } else {
        object[key] = value;
      }
      this.skipWhitespace();
      const next = this.text.charCodeAt(this.at++);
      if (next === CLOSE_BRACE) return object;
      if (next !== COMMA) this.fail("',' or '}'", this.at - 1);
    }
  }

  private array(): ExactJson[] {
    this.at++;
    const array: ExactJson[] = [];
    this.skipWhitespace();
    if (this.text.charCodeAt(this.at) === CLOSE_BRACKET) {
      this.at++;
      return array;
    }
    for (;;) {
      array.push(this.value());
      this.skipWhitespace();
      const next = this.text.charCodeAt(this.at++);
      if (next === CLOSE_BRACKET) return array;
      if (next !== COMMA) this.fail("',' or ']'", this.at - 1);
    }
  }

  private string(): string {
    const text = this.text;
    const start = this.at;
    let end = start + 1;
    let escaped = false;
    for (;;) {
      const code = text.charCodeAt(end);
      if (code === QUOTE) break;
      if (code === BACKSLASH) {
        escaped = true;
        end += 2;
        continue;
      }
      if (code < 0x20 || Number.isNaN(code)) this.fail('a closed string', end);
      end++;
    }
    this.at = end + 1;
    if (!escaped) return text.slice(start + 1, end);
    try {
      return JSON.parse(text.slice(start, end + 1)) as string;
    } catch {
      return this.fail('a valid string', start);
    }
  }

  /** A JSON number, kept as its text. */
  private number(): string {
    const start = this.at;
    const end = jsonNumberEnd(this.text, start);
    if (end < 0) this.fail('a digit', ~end);
    this.at = end;
    return this.text.slice(start, end);
  }

  private skipWhitespace(): void {
    const text = this.text;
    let code = text.charCodeAt(this.at);
    while (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09)
      code = text.charCodeAt(++this.at);
  }

  private fail(expected: string, at = this.at): never {
    const found = at < this.text.length ? `'${this.text[at]}'` : 'the end of input';
    throw new SyntaxError(`JSON: expected ${expected} at position ${at}, found ${found}`);
  }
}

/**
 * One parser for every text (parsing never calls out, so it cannot be reentered). Made anew per text,
 * no instance might be alive at a full collection, and V8 would then drop the shape of its instances,
 * which it holds weakly, and with it the optimised parser: it ran unoptimised for thousands of frames
 * after every full collection.
 */
const parser = new ExactJsonParser();
