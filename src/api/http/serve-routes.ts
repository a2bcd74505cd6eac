import type { FastifyInstance } from 'fastify';
import { ApiError } from './api-error';
import type { ApiRoute, RouteHandler } from './api-route';

/**
 * Adds `routes` to Fastify, their handlers called straight from Fastify's route handler.
 *
 * Nest's per-request pipeline around a controller method (pipes, guards, interceptors and several
 * promise hops even when there are none) costs about as much as sending a cached body does, so the
 * API's routes are not Nest's. They still run every Fastify hook (security headers, rate limit, 405,
 * 406), and an error still reaches Nest's exception filters through Fastify's error handler, which
 * Nest sets. Must be called after the hooks that learn routes as they are added (`onRoute`).
 */
export function serveRoutes(fastify: FastifyInstance, routes: readonly ApiRoute[]): void {
  for (const route of routes)
    fastify.get(route.path, route.path.includes(':') ? withParams(route.handler) : route.handler);
}

/** An empty path parameter (`/orderbook/`) names nothing: the 404 of an unknown path. */
function withParams(handler: RouteHandler): RouteHandler {
  return (request, reply) => {
    if (hasEmptyParam(request.params)) throw ApiError.notFound('not_found', 'no such endpoint');
    return handler(request, reply);
  };
}

function hasEmptyParam(params: unknown): boolean {
  if (typeof params !== 'object' || params === null) return false;
  for (const name in params) if ((params as Record<string, unknown>)[name] === '') return true;
  return false;
}
