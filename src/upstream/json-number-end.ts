import { DOT, isDigit, LOWER_E, MINUS, PLUS, UPPER_E, ZERO } from './json-char-codes';

/**
 * Where the JSON number starting at `start` ends, by JSON's grammar
 * `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`; where a digit is missing instead, the
 * bitwise complement (`~position`, negative) of the place that needed it. Shared by the readers that
 * walk a text by `charCodeAt`, which differ only in what they do about a missing digit.
 */
export function jsonNumberEnd(text: string, start: number): number {
  let at = start;
  if (text.charCodeAt(at) === MINUS) at++;
  if (text.charCodeAt(at) === ZERO) at++;
  else if (isDigit(text.charCodeAt(at))) while (isDigit(text.charCodeAt(at))) at++;
  else return ~at;
  if (text.charCodeAt(at) === DOT) {
    at++;
    if (!isDigit(text.charCodeAt(at))) return ~at;
    while (isDigit(text.charCodeAt(at))) at++;
  }
  const exponent = text.charCodeAt(at);
  if (exponent === LOWER_E || exponent === UPPER_E) {
    at++;
    const sign = text.charCodeAt(at);
    if (sign === PLUS || sign === MINUS) at++;
    if (!isDigit(text.charCodeAt(at))) return ~at;
    while (isDigit(text.charCodeAt(at))) at++;
  }
  return at;
}
