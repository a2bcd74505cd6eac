import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from './api-error';
import { SECURITY_HEADERS } from './security-headers';

/**
 * Errors Fastify raises before any route runs (a malformed URL such as `/orderbook/%ZZ`), answered
 * with 400 and the JSON error body like every other client error.
 */
export function frameworkErrors(error: Error, _request: FastifyRequest, reply: FastifyReply): void {
  reply
    .code(400)
    .headers(SECURITY_HEADERS)
    .header('cache-control', 'no-store')
    .send(errorBody('bad_request', error.message.replace(/^.*?: /, '').slice(0, 200) || 'malformed request'));
}
