import type { FastifyInstance } from 'fastify';
import { Metric, Registry } from 'prom-client';
import { addRequestId } from '../logging/request-id';

/** Route label of requests that matched no route: raw URLs would make a series per URL. */
export const UNMATCHED_ROUTE = 'unmatched';

const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

type Labels = Readonly<Record<'method' | 'route' | 'status', string>>;

/** One label combination: its request count and latency histogram, in plain numbers. */
interface Series {
  readonly labels: Labels;
  count: number;
  sum: number;
  /** Requests per bucket of BUCKETS (not cumulative), and one more for those above the last. */
  readonly buckets: number[];
}

interface Sample {
  readonly metricName?: string;
  readonly labels: Readonly<Record<string, string | number>>;
  readonly value: number;
}

/**
 * HTTP request counts and latencies by route pattern, method and status. A request only bumps plain
 * numbers of its series, looked up once by a string key; the samples are built when Prometheus
 * scrapes. (prom-client's own metrics hash and validate the labels on every increment, which cost
 * about as much as serving a cached body.)
 */
export class HttpMetrics {
  private readonly series = new Map<string, Series>();

  constructor(registry: Registry) {
    this.register(
      registry,
      'mdg_http_requests_total',
      'counter',
      'HTTP requests answered, by method, route pattern and status.',
      () => this.countSamples(),
    );
    this.register(
      registry,
      'mdg_http_request_duration_seconds',
      'histogram',
      'Time from the request to the end of its response, by method, route pattern and status.',
      () => this.durationSamples(),
    );
  }

  /** One answered request; `route` is the pattern (`/orderbook/:instrument`), never the raw URL. */
  record(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${status} ${route}`;
    let series = this.series.get(key);
    if (!series) {
      series = {
        labels: { method, route, status: String(status) },
        count: 0,
        sum: 0,
        buckets: new Array<number>(BUCKETS.length + 1).fill(0),
      };
      this.series.set(key, series);
    }
    series.count += 1;
    series.sum += seconds;
    let bucket = 0;
    while (bucket < BUCKETS.length && seconds > BUCKETS[bucket]) bucket += 1;
    series.buckets[bucket] += 1;
  }

  private countSamples(): Sample[] {
    return [...this.series.values()].map((series) => ({ labels: series.labels, value: series.count }));
  }

  private durationSamples(): Sample[] {
    const name = 'mdg_http_request_duration_seconds';
    const samples: Sample[] = [];
    for (const series of this.series.values()) {
      let cumulative = 0;
      BUCKETS.forEach((bound, index) => {
        cumulative += series.buckets[index];
        samples.push({
          metricName: `${name}_bucket`,
          labels: { ...series.labels, le: bound },
          value: cumulative,
        });
      });
      samples.push({
        metricName: `${name}_bucket`,
        labels: { ...series.labels, le: '+Inf' },
        value: series.count,
      });
      samples.push({ metricName: `${name}_sum`, labels: series.labels, value: series.sum });
      samples.push({ metricName: `${name}_count`, labels: series.labels, value: series.count });
    }
    return samples;
  }

  /** A metric the registry formats like its own: the same `get` result prom-client's metrics give. */
  private register(
    registry: Registry,
    name: string,
    type: 'counter' | 'histogram',
    help: string,
    values: () => Sample[],
  ): void {
    const metric = {
      name,
      help,
      type,
      aggregator: 'sum',
      get: () => Promise.resolve({ name, help, type, values: values(), aggregator: 'sum' }),
      reset: () => this.series.clear(),
    };
    registry.registerMetric(metric as unknown as Metric);
  }
}

/**
 * The HTTP server's per-request observability, in one place: every response carries the request's
 * id (`X-Request-Id`, see `requestIdOf`), and its method, route pattern, status and duration are
 * counted when it has been sent.
 */
export function observeHttp(fastify: FastifyInstance, metrics: HttpMetrics): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    addRequestId(reply, request.id);
    done();
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    const route = request.is404 ? UNMATCHED_ROUTE : (request.routeOptions.url ?? UNMATCHED_ROUTE);
    metrics.record(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}
