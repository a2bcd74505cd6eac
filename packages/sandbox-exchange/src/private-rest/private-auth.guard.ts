import { CanActivate, ExecutionContext, HttpStatus, Inject, Injectable } from '@nestjs/common';
import { ExactJson, isJsonObject, parseExactJson } from '../wire/exact-json';
import { SandboxExchange } from '../simulation/sandbox-exchange';
import { SandboxUsers } from '../users/sandbox-users';
import { NonceWindow } from './nonce-window';
import { AuthenticatedRequest } from './private-caller';
import { badRequest, privateError } from './private-error';
import { isValidSignature, queryPayload } from './request-signature';
import { parseRequestTime, TS_WINDOW_MS } from './request-time';

const INTEGER = /^-?\d{1,19}$/;

function header(request: AuthenticatedRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * Admits a private request (spec 5.1): `Key` names a user's public key; `Sign` is the upper-case hex
 * HMAC-SHA512 of the exact body (POST) or the exact query string from its `?` (GET, DELETE), keyed
 * with the private key; `ts` is within 5 seconds of the server's clock; `nonce` is an integer the
 * key has not used in the last 22 seconds. Refusals are 401 with a code naming the case; a missing
 * or malformed `ts` or `nonce` is 400.
 */
@Injectable()
export class PrivateAuthGuard implements CanActivate {
  private readonly nonces = new NonceWindow();

  constructor(
    @Inject(SandboxUsers) private readonly users: SandboxUsers,
    @Inject(SandboxExchange) private readonly exchange: SandboxExchange,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const key = header(request, 'key');
    const sign = header(request, 'sign');
    if (!key || !sign)
      throw privateError(
        HttpStatus.UNAUTHORIZED,
        'unauthorized',
        'Private calls need the Key and Sign headers',
      );
    const user = this.users.withPublicKey(key);
    if (!user) throw privateError(HttpStatus.UNAUTHORIZED, 'invalid_key', 'Unknown public key');

    const isPost = request.method === 'POST';
    const payload = isPost ? (request.rawBody?.toString('utf8') ?? '') : queryPayload(request.url);
    if (!isValidSignature(user.privateKey, payload, sign))
      throw privateError(
        HttpStatus.UNAUTHORIZED,
        'invalid_signature',
        `Sign is not the HMAC-SHA512 of the ${isPost ? 'body' : 'query string'} with the key's private key`,
      );

    const fields = isPost ? this.exactBody(request, payload) : (request.query as Record<string, unknown>);
    const tsText = fields.ts;
    const ts = typeof tsText === 'string' ? parseRequestTime(tsText) : undefined;
    if (ts === undefined) throw badRequest('ts: required, an ISO 8601 UTC timestamp');
    const now = this.exchange.clock.now();
    if (Math.abs(now - ts) >= TS_WINDOW_MS)
      throw privateError(
        HttpStatus.UNAUTHORIZED,
        'invalid_ts',
        `ts ${String(tsText)} is 5 seconds or more away from the server time ${new Date(now).toISOString()}`,
      );
    const nonce = fields.nonce;
    if (typeof nonce !== 'string' || !INTEGER.test(nonce)) throw badRequest('nonce: required, an integer');
    if (!this.nonces.use(user.publicKey, nonce, now))
      throw privateError(
        HttpStatus.UNAUTHORIZED,
        'nonce_reused',
        `nonce ${nonce} was used in the last 22 seconds`,
      );
    request.privateCaller = user;
    return true;
  }

  private exactBody(request: AuthenticatedRequest, text: string): Record<string, ExactJson> {
    let body: ExactJson;
    try {
      body = parseExactJson(text);
    } catch {
      throw badRequest('body: not JSON');
    }
    if (!isJsonObject(body)) throw badRequest('body: must be a JSON object');
    request.exactBody = body;
    return body;
  }
}
