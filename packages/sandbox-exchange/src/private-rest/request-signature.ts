import { createHmac, timingSafeEqual } from 'node:crypto';

/** `Sign` of a private request: HMAC-SHA512 of the payload keyed with the private key, upper-case hex (spec 5.1). */
export function signPayload(privateKey: string, payload: string): string {
  return createHmac('sha512', Buffer.from(privateKey, 'utf8'))
    .update(payload, 'utf8')
    .digest('hex')
    .toUpperCase();
}

/** Whether `sign` is the payload's signature; letter case is ignored, as some of the exchange's samples send lower case. */
export function isValidSignature(privateKey: string, payload: string, sign: string): boolean {
  const expected = Buffer.from(signPayload(privateKey, payload), 'utf8');
  const given = Buffer.from(sign.toUpperCase(), 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The payload of a GET or DELETE: the query string exactly as sent, from its `?`; empty without one. */
export function queryPayload(url: string): string {
  const start = url.indexOf('?');
  return start < 0 ? '' : url.slice(start);
}
