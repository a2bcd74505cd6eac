import type { IncomingHttpHeaders } from 'node:http';
import { isValidSignature } from '../private-rest/request-signature';
import { parseRequestTime, TS_WINDOW_MS } from '../private-rest/request-time';
import { SandboxUser } from '../users/sandbox-user';
import { SandboxUsers } from '../users/sandbox-users';

/** Why a connection to the account hub was refused; each is answered 401 with this code. */
export type AccountHubRefusal =
  'unauthorized' | 'invalid_key' | 'invalid_signature' | 'invalid_payload' | 'invalid_ts';

export type AccountHubAdmission =
  | { readonly ok: true; readonly user: SandboxUser }
  | { readonly ok: false; readonly code: AccountHubRefusal; readonly message: string };

const UNIX_MS = /^\d{1,15}$/;

/** The instant `Payload` names: an ISO 8601 UTC timestamp, as `ts` of the private REST, or Unix milliseconds. */
export function payloadTime(payload: string): number | undefined {
  if (UNIX_MS.test(payload)) return Number(payload);
  return parseRequestTime(payload);
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * Admits a connection to the private hub (spec 5.2): `Key` is a user's public key, `Sign` the
 * upper-case hex HMAC-SHA512 of the `Payload` text keyed with the private key, and `Payload` a
 * timestamp less than 5 seconds from the server's clock. There is no nonce: the timestamp alone
 * bounds a replay.
 */
export function admitAccountHubRequest(
  headers: IncomingHttpHeaders,
  users: SandboxUsers,
  now: number,
): AccountHubAdmission {
  const key = header(headers, 'key');
  const sign = header(headers, 'sign');
  const payload = header(headers, 'payload');
  if (!key || !sign || !payload)
    return {
      ok: false,
      code: 'unauthorized',
      message: 'The account hub needs the Key, Sign and Payload headers',
    };
  const user = users.withPublicKey(key);
  if (!user) return { ok: false, code: 'invalid_key', message: 'Unknown public key' };
  if (!isValidSignature(user.privateKey, payload, sign))
    return {
      ok: false,
      code: 'invalid_signature',
      message: "Sign is not the HMAC-SHA512 of Payload with the key's private key",
    };
  const time = payloadTime(payload);
  if (time === undefined)
    return {
      ok: false,
      code: 'invalid_payload',
      message: 'Payload must be an ISO 8601 UTC timestamp or Unix milliseconds',
    };
  if (Math.abs(now - time) >= TS_WINDOW_MS)
    return {
      ok: false,
      code: 'invalid_ts',
      message: `Payload ${payload} is 5 seconds or more away from the server time ${new Date(now).toISOString()}`,
    };
  return { ok: true, user };
}
