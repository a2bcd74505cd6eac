import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ApiError } from './api-error';
import { echoedInput } from './echoed-input';

const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

interface KnownPath {
  readonly pattern: RegExp;
  readonly methods: Set<string>;
}

/**
 * A request with another method to a path that has routes gets a 405 with `Allow` and the JSON
 * error body, instead of Fastify's 404. The routes are learnt as they are added, so this must be
 * applied before any route is.
 */
export function applyMethodNotAllowed(app: NestFastifyApplication): void {
  const fastify = app.getHttpAdapter().getInstance();
  const known = new Map<string, KnownPath>();
  fastify.addHook('onRoute', (route) => {
    // A catch-all (the CORS preflight's `*`) says nothing about which paths exist.
    if (route.url === '*' || route.url === '/*') return;
    let path = known.get(route.url);
    if (!path) {
      path = { pattern: routePattern(route.url), methods: new Set() };
      known.set(route.url, path);
    }
    for (const method of [route.method].flat()) {
      path.methods.add(method);
      if (method === 'GET') path.methods.add('HEAD');
    }
  });
  fastify.addHook('onRequest', (request, _reply, done) => {
    if (!request.is404) return done();
    const path = pathOf(request.url);
    const allowed = new Set<string>();
    for (const candidate of known.values())
      if (candidate.pattern.test(path)) candidate.methods.forEach((method) => allowed.add(method));
    if (allowed.size === 0 || allowed.has(request.method)) return done();
    const methods = [...allowed].sort((a, b) => rank(a) - rank(b));
    done(
      ApiError.methodNotAllowed(
        `${request.method} is not allowed on ${echoedInput(path)}: it answers ${methods.join(', ')}`,
        methods,
      ),
    );
  });
}

/** The path without its query and the trailing slash the router ignores. */
function pathOf(url: string): string {
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/** `/orderbook/:instrument` as a regular expression over request paths. */
function routePattern(url: string): RegExp {
  const parts = url.split(/(:[A-Za-z0-9_]+|\*)/).map((part) => {
    if (part === '*') return '.*';
    if (part.startsWith(':')) return '[^/]+';
    return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  });
  return new RegExp(`^${parts.join('')}/?$`);
}

function rank(method: string): number {
  const index = METHOD_ORDER.indexOf(method);
  return index === -1 ? METHOD_ORDER.length : index;
}
