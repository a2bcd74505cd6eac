import { Registry } from 'prom-client';
import { StreamMetrics } from './stream-metrics';

async function samples(registry: Registry): Promise<Record<string, number>> {
  const found: Record<string, number> = {};
  for (const metric of await registry.getMetricsAsJSON())
    for (const { labels, value } of metric.values) {
      const label = Object.entries(labels)
        .map(([key, text]) => `${key}=${text}`)
        .join(',');
      found[label ? `${metric.name}{${label}}` : metric.name] = value;
    }
  return found;
}

describe('StreamMetrics', () => {
  it('reads the connections and their subscriptions by kind when scraped', async () => {
    const registry = new Registry();
    const open = [
      { channelNames: () => ['book.btc_usdt', 'trades.btc_usdt', 'ticker'] },
      { channelNames: () => ['book.eth_btc', 'book.eth.x_usdt'] },
    ];
    new StreamMetrics(registry, () => open);
    expect(await samples(registry)).toMatchObject({
      mdg_stream_connections: 2,
      'mdg_stream_subscriptions{kind=book}': 3,
      'mdg_stream_subscriptions{kind=trades}': 1,
      'mdg_stream_subscriptions{kind=ticker}': 1,
    });
    open.pop();
    expect(await samples(registry)).toMatchObject({
      mdg_stream_connections: 1,
      'mdg_stream_subscriptions{kind=book}': 1,
    });
  });

  it('counts frames by type, errors by code, conflations, slow closes and refused upgrades', async () => {
    const registry = new Registry();
    const metrics = new StreamMetrics(registry, () => []);
    metrics.sent({ type: 'pong' });
    metrics.sent({ type: 'pong' });
    metrics.sent({ type: 'error', code: 'bad_json', message: 'the frame is not JSON' });
    metrics.conflated('book');
    metrics.conflated('trades');
    metrics.conflated('trades');
    metrics.closedTooSlow();
    metrics.refusedUpgrade(429);
    const found = await samples(registry);
    expect(found).toMatchObject({
      'mdg_stream_messages_sent_total{type=pong}': 2,
      'mdg_stream_messages_sent_total{type=error}': 1,
      'mdg_stream_messages_sent_total{type=snapshot}': 0,
      'mdg_stream_errors_sent_total{code=bad_json}': 1,
      'mdg_stream_conflations_total{kind=book}': 1,
      'mdg_stream_conflations_total{kind=trades}': 2,
      mdg_stream_slow_closes_total: 1,
      'mdg_stream_upgrade_refusals_total{status=429}': 1,
    });
    metrics.sent({ type: 'pong' });
    expect(await samples(registry)).toMatchObject({ 'mdg_stream_messages_sent_total{type=pong}': 3 });
  });
});
