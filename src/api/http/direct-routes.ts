import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { RouteHandlerMethod } from 'fastify';
import type { ApiReply, ApiRequest } from './api-http';

/**
 * A controller method with its arguments taken straight from the request: Fastify's, or the fast
 * path's (`FastPath`), which has the same parts.
 */
export type DirectHandler = (request: ApiRequest, reply: ApiReply) => void | Promise<void>;

/** Direct handlers by route path as Fastify sees it (`/orderbook/:instrument`). */
export type DirectHandlers = ReadonlyMap<string, DirectHandler>;

/**
 * Lets Fastify call `handlers` for their GET (and HEAD) routes in place of Nest's route handler.
 *
 * Nest's per-request pipeline around a controller method (pipes, guards, interceptors and several
 * promise hops even when there are none) costs about as much as sending a cached listing body does,
 * so the cached endpoints would serve far fewer requests than a bare server. The routes are still
 * declared by the controller (paths, OpenAPI) and still run every Fastify hook (rate limit); an
 * error still reaches Nest's exception filters through Fastify's error handler, which Nest sets.
 * Must be called before the application is initialised, as the hook sees routes as they are added.
 * Guards, interceptors and pipes do not run for these routes, so they must use none.
 */
export function serveDirectly(app: NestFastifyApplication, handlers: DirectHandlers): void {
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRoute', (route) => {
      const direct = handlers.get(route.url);
      if (!direct || (route.method !== 'GET' && route.method !== 'HEAD')) return;
      const viaNest: RouteHandlerMethod = route.handler;
      route.handler = function (request, reply) {
        // Nest answers an empty path parameter with its not-found response.
        if (hasEmptyParam(request.params)) return viaNest.call(this, request, reply);
        return direct(request, reply);
      };
    });
}

function hasEmptyParam(params: unknown): boolean {
  if (typeof params !== 'object' || params === null) return false;
  for (const name in params) if ((params as Record<string, unknown>)[name] === '') return true;
  return false;
}
