import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { acceptsMedia } from './accepted-media';
import { ApiError } from './api-error';
import { echoedInput } from './echoed-input';

export const JSON_MEDIA = 'application/json';

/**
 * The media type a route answers with: JSON but for the metrics (Prometheus text) and the OpenAPI
 * page (HTML); the page's scripts and styles, the console and the status page are not negotiated.
 */
export function producedMedia(route: string | undefined): string | undefined {
  if (route === '/metrics' || route === '/udf/time') return 'text/plain';
  if (route === '/docs') return 'text/html';
  if (route?.startsWith('/docs/')) return undefined;
  // The console and the status page: HTML, their feeds and files, each what a browser asks for.
  if (
    route === '/console' ||
    route?.startsWith('/console/') ||
    route === '/status' ||
    route?.startsWith('/status/')
  )
    return undefined;
  return JSON_MEDIA;
}

/** The 406 of a request whose `Accept` header refuses what its route answers with. */
export function notAcceptable(accept: string | string[] | undefined, media: string): ApiError {
  return ApiError.notAcceptable(
    `this endpoint answers ${media} only, which the Accept header ${echoedInput(String(accept))} refuses`,
  );
}

/**
 * A request to a known route whose `Accept` header refuses the route's media type gets a 406 with
 * the JSON error body (spec 7.3). Unknown paths keep their 404.
 */
export function applyContentNegotiation(app: NestFastifyApplication): void {
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRequest', (request, _reply, done) => {
      if (request.is404 || request.method === 'OPTIONS') return done();
      const media = producedMedia(request.routeOptions.url);
      const accept = request.headers.accept;
      done(media === undefined || acceptsMedia(accept, media) ? undefined : notAcceptable(accept, media));
    });
}
