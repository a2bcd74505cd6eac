/** A parsed JSON value in which every number is the exact text the sender wrote. */
export type ExactJson = string | boolean | null | ExactJson[] | { [key: string]: ExactJson };

/**
 * Parses JSON without passing numbers through binary floating point: each number becomes the string
 * of its digits, so that a price like 0.1 or an 18-decimal amount keeps every digit.
 * Throws a SyntaxError on malformed input. A repeated key keeps its last value, as in JSON.parse.
 */
export function parseExactJson(text: string): ExactJson {
  return new ExactJsonParser(text).parse();
}

export function isJsonObject(value: ExactJson | undefined): value is { [key: string]: ExactJson } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const LOWER_E = 0x65;
/** Arrays and objects nested deeper are rejected as a SyntaxError rather than overflowing the stack. */
const MAX_DEPTH = 1000;
const UPPER_E = 0x45;

function isDigit(code: number): boolean {
  return code >= ZERO && code <= NINE;
}

/**
 * A recursive-descent reader of JSON's grammar (RFC 8259) over char codes: strings without escapes are
 * sliced from the text, strings with escapes are decoded by JSON.parse, numbers are sliced as they are.
 * It makes no intermediate text and few calls, which is what made the general-purpose parsers it
 * replaces (lossless-json, or quoting the numbers for JSON.parse) cost several times JSON.parse.
 */
class ExactJsonParser {
  private at = 0;
  private depth = 0;

  constructor(private readonly text: string) {}

  parse(): ExactJson {
    const value = this.value();
    this.skipWhitespace();
    if (this.at < this.text.length) this.fail('end of input');
    return value;
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

  /** `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, kept as its text. */
  private number(): string {
    const text = this.text;
    const start = this.at;
    let at = start;
    if (text.charCodeAt(at) === MINUS) at++;
    if (text.charCodeAt(at) === ZERO) at++;
    else if (isDigit(text.charCodeAt(at))) while (isDigit(text.charCodeAt(at))) at++;
    else this.fail('a digit', at);
    if (text.charCodeAt(at) === DOT) {
      at++;
      if (!isDigit(text.charCodeAt(at))) this.fail('a digit', at);
      while (isDigit(text.charCodeAt(at))) at++;
    }
    const exponent = text.charCodeAt(at);
    if (exponent === LOWER_E || exponent === UPPER_E) {
      at++;
      const sign = text.charCodeAt(at);
      if (sign === PLUS || sign === MINUS) at++;
      if (!isDigit(text.charCodeAt(at))) this.fail('a digit', at);
      while (isDigit(text.charCodeAt(at))) at++;
    }
    this.at = at;
    return text.slice(start, at);
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
