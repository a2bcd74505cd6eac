import type { FastifyInstance } from 'fastify';
import type { ApiReply } from './api-http';
import { ApiError } from './api-error';
import { ClientRateLimit } from './client-rate-limit';

/** Health, metrics and the API's documents (`/docs`, its page's files, `/docs-json`, the AsyncAPI document). */
const UNLIMITED = /^\/(health\/|metrics\/?(\?|$)|docs([-/?]|$))/;

/**
 * Counts a request to `url` from `client` against `limit` (health, metrics and documents are not) and
 * adds the limit's headers to `reply`: the 429 to answer with when the client is over the limit.
 * Fastify's hook and the fast path both limit here, with the same limiter instance.
 */
export function limitRate(
  limit: ClientRateLimit,
  url: string,
  client: string,
  reply: ApiReply,
): ApiError | undefined {
  if (UNLIMITED.test(url)) return undefined;
  const decision = limit.hit(client);
  reply.headers(decision.headers);
  return decision.limited ? limit.error(decision) : undefined;
}

/**
 * The per-client limit on every API path Fastify answers; a limited request leaves through the
 * exception filter as a 429 with the JSON error body.
 */
export function applyRateLimit(fastify: FastifyInstance, limit: ClientRateLimit): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    done(limitRate(limit, request.url, request.ip, reply));
  });
}
