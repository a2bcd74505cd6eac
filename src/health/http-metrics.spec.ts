import Fastify from 'fastify';
import { Registry } from 'prom-client';
import { HttpMetrics, observeHttp } from './http-metrics';
import { requestIdOf } from '../logging/request-id';

async function sampleValue(
  registry: Registry,
  name: string,
  labels: Record<string, string>,
): Promise<number> {
  const metric = (await registry.getMetricsAsJSON()).find((entry) => entry.name === name);
  const value = (
    metric?.values as { labels: Record<string, string | number>; value: number }[] | undefined
  )?.find((sample) => Object.entries(labels).every(([key, wanted]) => String(sample.labels[key]) === wanted));
  return value?.value ?? 0;
}

describe('observeHttp', () => {
  it('counts and times requests by route pattern, method and status, and echoes the request id', async () => {
    const registry = new Registry();
    const fastify = Fastify({ genReqId: requestIdOf, requestIdHeader: false });
    observeHttp(fastify, new HttpMetrics(registry));
    fastify.get('/orderbook/:instrument', async () => ({ ok: true }));
    await fastify.ready();
    const first = await fastify.inject({ url: '/orderbook/BTC_USDT', headers: { 'x-request-id': 'lb-1' } });
    await fastify.inject({ url: '/orderbook/ETH_USDT' });
    const missing = await fastify.inject({ url: '/no/such/path/123' });
    await fastify.close();

    expect(first.headers['x-request-id']).toBe('lb-1');
    expect(missing.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const book = { method: 'GET', route: '/orderbook/:instrument', status: '200' };
    expect(await sampleValue(registry, 'mdg_http_requests_total', book)).toBe(2);
    expect(
      await sampleValue(registry, 'mdg_http_requests_total', { route: 'unmatched', status: '404' }),
    ).toBe(1);
    const text = await registry.metrics();
    expect(text).toMatch(
      /mdg_http_request_duration_seconds_count\{method="GET",route="\/orderbook\/:instrument",status="200"\} 2/,
    );
    expect(text).not.toContain('BTC_USDT');
    expect(text).not.toContain('/no/such/path');
  });

  it('writes the Prometheus histogram: cumulative buckets, +Inf equal to the count, the sum', async () => {
    const registry = new Registry();
    const metrics = new HttpMetrics(registry);
    for (const seconds of [0.0004, 0.003, 0.003, 0.2, 7]) metrics.record('GET', '/summary', 200, seconds);
    const text = await registry.metrics();
    const line = (suffix: string, extra = '') =>
      new RegExp(
        `mdg_http_request_duration_seconds_${suffix}\\{method="GET",route="/summary",status="200"${extra}\\} ([^\\n]+)`,
      ).exec(text)?.[1];
    expect(line('bucket', ',le="0.0005"')).toBe('1');
    expect(line('bucket', ',le="0.0025"')).toBe('1');
    expect(line('bucket', ',le="0.005"')).toBe('3');
    expect(line('bucket', ',le="0.25"')).toBe('4');
    expect(line('bucket', ',le="2.5"')).toBe('4');
    expect(line('bucket', ',le="\\+Inf"')).toBe('5');
    expect(line('count')).toBe('5');
    expect(Number(line('sum'))).toBeCloseTo(7.2064, 10);
    expect(text).toContain('# TYPE mdg_http_request_duration_seconds histogram');
    expect(text).toMatch(/mdg_http_requests_total\{method="GET",route="\/summary",status="200"\} 5/);
  });
});
