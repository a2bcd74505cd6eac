import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from './api-error';
import { echoedInput } from './echoed-input';
import { SECURITY_HEADERS } from './security-headers';

/** Fastify's limit on the length of a path parameter (its default). */
export const MAX_PATH_PARAMETER_LENGTH = 100;

/**
 * Errors Fastify raises before any route runs (a malformed URL such as `/orderbook/%ZZ`, a path
 * parameter over Fastify's length limit), answered with 400 and the JSON error body like every
 * other client error: the reason first, then the URL cut short.
 */
export function frameworkErrors(error: Error, request: FastifyRequest, reply: FastifyReply): void {
  reply
    .code(400)
    .headers(SECURITY_HEADERS)
    .header('cache-control', 'no-store')
    .send(errorBody('bad_request', `${reasonOf(error)}: ${echoedInput(request.url)}`));
}

function reasonOf(error: Error): string {
  switch ((error as { code?: string }).code) {
    case 'FST_ERR_BAD_URL':
      return 'malformed URL (an invalid percent escape)';
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return `a path segment is longer than ${MAX_PATH_PARAMETER_LENGTH} characters`;
    default:
      return 'malformed request';
  }
}
