import { isLosslessNumber, parse, stringify } from 'lossless-json';

/**
 * Each entry of `pairs` in a `/frontoffice/api/info` body as its own JSON text, keyed by the entry's
 * key in lower case: every field the exchange sent, numbers with their exact digits and still numbers,
 * dates as written. The REST mirror serves these, so that it reproduces fields the gateway does not
 * model (`makerFeeLimit`, ...). Empty when the body holds no `pairs` object; never throws.
 */
export function exchangeRecords(text: string): Map<string, string> {
  const records = new Map<string, string>();
  let body: unknown;
  try {
    body = parse(text);
  } catch {
    return records;
  }
  const pairs = isObject(body) ? body.pairs : undefined;
  if (!isObject(pairs)) return records;
  for (const [key, value] of Object.entries(pairs)) {
    const id = key.toLowerCase();
    if (records.has(id) || !isObject(value)) continue;
    const record = stringify(value);
    if (record !== undefined) records.set(id, record);
  }
  return records;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !isLosslessNumber(value);
}
