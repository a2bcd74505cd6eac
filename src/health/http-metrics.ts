import type { FastifyInstance } from 'fastify';
import { Counter, Histogram, Registry } from 'prom-client';
import { REQUEST_ID_HEADER } from '../logging/request-id';

/** Route label of requests that matched no route: raw URLs would make a series per URL. */
export const UNMATCHED_ROUTE = 'unmatched';

interface Series {
  readonly count: { inc(): void };
  readonly time: { observe(seconds: number): void };
}

/**
 * HTTP request counts and latencies by route pattern, method and status. Each label combination's
 * series is looked up once and kept, so that a request costs a map lookup and two increments.
 */
export class HttpMetrics {
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly duration: Histogram<'method' | 'route' | 'status'>;
  private readonly series = new Map<string, Series>();

  constructor(registry: Registry) {
    this.requests = new Counter({
      name: 'mdg_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status.',
      labelNames: ['method', 'route', 'status'],
      registers: [registry],
    });
    this.duration = new Histogram({
      name: 'mdg_http_request_duration_seconds',
      help: 'Time from the request to the end of its response, by method, route pattern and status.',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    });
  }

  /** One answered request; `route` is the pattern (`/orderbook/:instrument`), never the raw URL. */
  record(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${status} ${route}`;
    let series = this.series.get(key);
    if (!series) {
      const labels = { method, route, status: String(status) };
      series = { count: this.requests.labels(labels), time: this.duration.labels(labels) };
      this.series.set(key, series);
    }
    series.count.inc();
    series.time.observe(seconds);
  }
}

/**
 * The HTTP server's per-request observability, in one place: every response carries the request's
 * id (`X-Request-Id`, see `requestIdOf`), and its method, route pattern, status and duration are
 * counted when it has been sent.
 */
export function observeHttp(fastify: FastifyInstance, metrics: HttpMetrics): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    const route = request.is404 ? UNMATCHED_ROUTE : (request.routeOptions.url ?? UNMATCHED_ROUTE);
    metrics.record(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}
