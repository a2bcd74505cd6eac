/** Char codes of JSON's syntax, for the readers that walk a text by `charCodeAt`. */
export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const COMMA = 0x2c;
export const COLON = 0x3a;
export const MINUS = 0x2d;
export const PLUS = 0x2b;
export const DOT = 0x2e;
export const ZERO = 0x30;
export const NINE = 0x39;
export const OPEN_BRACE = 0x7b;
export const CLOSE_BRACE = 0x7d;
export const OPEN_BRACKET = 0x5b;
export const CLOSE_BRACKET = 0x5d;
export const LOWER_E = 0x65;
export const UPPER_E = 0x45;

export function isDigit(code: number): boolean {
  return code >= ZERO && code <= NINE;
}
