import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { HttpMetrics } from '../../health/http-metrics';
import { addRequestId, requestIdOf } from '../../logging/request-id';
import { acceptsMedia } from './accepted-media';
import type { ApiRequest } from './api-http';
import { ClientRateLimit } from './client-rate-limit';
import { JSON_MEDIA } from './content-negotiation';
import type { ApiRoute, RouteHandler } from './api-route';
import { errorResponse, sendError } from './error-response';
import { limitRate } from './rate-limit';
import { RawReply } from './raw-reply';
import { addSecurityHeaders } from './security-headers';
import { DataSourceHeader } from './data-source-header';

export interface FastPathOptions {
  /** The API's routes; it answers those marked `fastPath`, each exact (`/summary`) or with one final parameter. */
  readonly routes: readonly ApiRoute[];
  /** The limit Fastify's routes apply too; undefined when the limit is off. */
  readonly rateLimit: ClientRateLimit | undefined;
  /** The client's address as Fastify's `request.ip` gives it (trusted proxies considered). */
  readonly clientAddress: (request: IncomingMessage) => string;
  /** CORS is on: a request with an `Origin` goes to Fastify, which answers for CORS. */
  readonly cors: boolean;
  /** Where Fastify's routes count their requests, so that the fast path's are counted alike. */
  readonly metrics?: HttpMetrics;
  /** Says so on every response of a gateway fed by the sandbox, as Fastify's hook does. */
  readonly dataSource?: DataSourceHeader;
}

interface Route {
  /** The route's pattern as Fastify knows it, for the metrics. */
  readonly path: string;
  readonly handler: RouteHandler;
}

interface ParamRoute extends Route {
  readonly prefix: string;
  readonly name: string;
}

/** A path parameter the fast path takes as it is: no escapes to decode, within Fastify's length limit. */
const PLAIN_PARAM = /^[A-Za-z0-9_-]{1,100}$/;
const NO_QUERY: Readonly<Record<string, string>> = Object.freeze({});

/**
 * Answers the hot cached GETs (`/summary`, `/ticker`, `/orderbook/btc_usdt` ...) straight from the
 * node:http request, ahead of Fastify: Fastify's request lifecycle and the hooks around it cost
 * several times what sending a cached body does. It calls the same route handlers, with the same
 * security headers, the same rate limit (the same limiter instance) and the same error bodies, so
 * that its responses are those Fastify would give. Anything it is not sure to answer the same way
 * (another method, a query string, an escape, a trailing slash, a body, CORS, an `Accept` header
 * that refuses JSON) it leaves to Fastify.
 */
export class FastPath {
  private readonly exact = new Map<string, Route>();
  private readonly withParam: ParamRoute[] = [];

  constructor(private readonly options: FastPathOptions) {
    for (const { path, handler, fastPath } of options.routes) {
      if (!fastPath) continue;
      const colon = path.indexOf(':');
      if (colon === -1) this.exact.set(path, { path, handler });
      else if (path.lastIndexOf('/') < colon && path.indexOf(':', colon + 1) === -1)
        this.withParam.push({ path, prefix: path.slice(0, colon), name: path.slice(colon + 1), handler });
    }
  }

  /** True when it answered `request`; false leaves it to Fastify, untouched. */
  handle(request: IncomingMessage, response: ServerResponse): boolean {
    if (request.method !== 'GET' || hasBody(request)) return false;
    if (this.options.cors && request.headers.origin !== undefined) return false;
    // Fastify answers the 406.
    if (!acceptsMedia(request.headers.accept, JSON_MEDIA)) return false;
    const url = request.url ?? '';
    if (url.includes('?') || url.includes('%')) return false;
    const apiRequest = this.route(url, request);
    if (!apiRequest) return false;
    const started = performance.now();
    const { metrics } = this.options;
    const reply = new RawReply(
      response,
      metrics &&
        ((status) => metrics.record('GET', apiRequest.path, status, (performance.now() - started) / 1000)),
    );
    addRequestId(reply, requestIdOf(request));
    addSecurityHeaders(url, reply);
    this.options.dataSource?.add(reply);
    const { rateLimit } = this.options;
    if (rateLimit) {
      const refused = limitRate(rateLimit, url, this.options.clientAddress(request), reply);
      if (refused) {
        fail(reply, refused);
        return true;
      }
    }
    try {
      const answered = apiRequest.handler(apiRequest, reply);
      if (answered) answered.catch((error: unknown) => fail(reply, error));
    } catch (error) {
      fail(reply, error);
    }
    return true;
  }

  private route(url: string, request: IncomingMessage): (ApiRequest & Route) | undefined {
    const exact = this.exact.get(url);
    if (exact)
      return {
        path: exact.path,
        handler: exact.handler,
        headers: request.headers,
        params: NO_QUERY,
        query: NO_QUERY,
      };
    for (const route of this.withParam) {
      if (!url.startsWith(route.prefix)) continue;
      const value = url.slice(route.prefix.length);
      if (!PLAIN_PARAM.test(value)) return undefined;
      return {
        path: route.path,
        handler: route.handler,
        headers: request.headers,
        params: { [route.name]: value },
        query: NO_QUERY,
      };
    }
    return undefined;
  }
}

function hasBody(request: IncomingMessage): boolean {
  const length = request.headers['content-length'];
  return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
}

/** The error as the exception filter answers it. */
function fail(reply: RawReply, error: unknown): void {
  const response = errorResponse(error);
  if (!reply.done) sendError(reply, response);
}
