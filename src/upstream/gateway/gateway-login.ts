import { request as httpRequest, IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { GatewayLoginError } from './gateway-errors';

export interface GatewayCredentials {
  readonly email: string;
  readonly password: string;
}

/** What a login gives: `sessionToken` goes into the gateway URL, `token` into WebAuthenticateUser. */
export interface GatewaySession {
  readonly sessionToken: string;
  readonly token: string;
}

const MAX_BODY_BYTES = 1024 * 1024;

export interface LoginOptions {
  /** Path of the login call under the auth root, e.g. `/api/v1/trade/auth`. */
  readonly path: string;
  readonly timeoutMs: number;
  readonly userAgent: string;
  readonly signal?: AbortSignal;
}

/**
 * `POST {authUrl}{path}` with the form-encoded e-mail and password. Runs on its own
 * connection (no keep-alive pool), so that nothing stays open after the client stops. Errors carry
 * the HTTP status at most, never the credentials or the tokens.
 */
export async function login(
  authUrl: string,
  credentials: GatewayCredentials,
  options: LoginOptions,
): Promise<GatewaySession> {
  const url = new URL(`${authUrl.replace(/\/+$/, '')}${options.path}`);
  const body = new URLSearchParams({ email: credentials.email, password: credentials.password }).toString();
  const response = await post(url, body, options);
  if (response.status !== 200)
    throw new GatewayLoginError(`login failed with HTTP ${response.status}`, response.status);
  let reply: unknown;
  try {
    reply = JSON.parse(response.body);
  } catch {
    throw new GatewayLoginError('login reply is not JSON', response.status);
  }
  const data = (reply as { data?: Record<string, unknown> } | null)?.data;
  const sessionToken = data?.session_token;
  const token = data?.token;
  if (typeof sessionToken !== 'string' || sessionToken === '' || typeof token !== 'string' || token === '')
    throw new GatewayLoginError('login reply has no session_token and token', response.status);
  return { sessionToken, token };
}

interface Response {
  readonly status: number;
  readonly body: string;
}

function post(url: URL, body: string, options: LoginOptions): Promise<Response> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const fail = (error: Error) =>
      reject(
        error instanceof GatewayLoginError ? error : new GatewayLoginError(`login failed: ${error.message}`),
      );
    const request = send(
      url,
      {
        method: 'POST',
        agent: false,
        signal: options.signal,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': Buffer.byteLength(body),
          'user-agent': options.userAgent,
          accept: 'application/json',
        },
      },
      (response: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_BODY_BYTES) request.destroy(new GatewayLoginError('login reply is too large'));
          else chunks.push(chunk);
        });
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        );
        response.on('error', fail);
      },
    );
    request.setTimeout(options.timeoutMs, () =>
      request.destroy(new GatewayLoginError(`login timed out after ${options.timeoutMs} ms`)),
    );
    request.on('error', fail);
    request.end(body);
  });
}
