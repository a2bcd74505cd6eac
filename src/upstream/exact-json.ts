import { parse } from 'lossless-json';

/** A parsed JSON value in which every number is the exact text the sender wrote. */
export type ExactJson = string | boolean | null | ExactJson[] | { [key: string]: ExactJson };

const keepText = (text: string): string => text;

/**
 * Parses JSON without passing numbers through binary floating point: each number becomes the string
 * of its digits, so that a price like 0.1 or an 18-decimal amount keeps every digit.
 * Throws a SyntaxError on malformed input.
 */
export function parseExactJson(text: string): ExactJson {
  return parse(text, null, keepText) as ExactJson;
}

export function isJsonObject(value: ExactJson | undefined): value is { [key: string]: ExactJson } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
