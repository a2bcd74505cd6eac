import { isJsonObject, parseExactJson } from '../exact-json';
import { ExchangeErrorEntry } from './rest-errors';

/** The entries of an error body `{ errors: [{ code, message }] }`, or none when the text has another shape. */
export function parseExchangeErrors(text: string): ExchangeErrorEntry[] {
  let body;
  try {
    body = parseExactJson(text);
  } catch {
    return [];
  }
  if (!isJsonObject(body) || !Array.isArray(body.errors)) return [];
  return body.errors.flatMap((entry) => {
    if (!isJsonObject(entry)) return [];
    const { code, message } = entry;
    return typeof message === 'string' ? [{ code: typeof code === 'string' ? code : '', message }] : [];
  });
}
