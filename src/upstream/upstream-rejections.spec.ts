import { Registry } from 'prom-client';
import { REJECTED_METRIC, UpstreamRejections } from './upstream-rejections';

async function counted(registry: Registry): Promise<Record<string, number>> {
  const metric = await registry.getSingleMetric(REJECTED_METRIC)!.get();
  return Object.fromEntries(
    metric.values.map((sample) => [`${sample.labels.source} ${sample.labels.reason}`, sample.value]),
  );
}

describe('UpstreamRejections', () => {
  it('counts every rejection by source and reason, and logs each kind at most once per interval', async () => {
    const registry = new Registry();
    const lines: string[] = [];
    let now = 0;
    const rejections = new UpstreamRejections(
      { warn: (line) => lines.push(line) },
      { registry, logIntervalMs: 1_000, now: () => now },
    );
    for (let i = 0; i < 500; i++) rejections.rejected('hub', 'not-json', `junk ${i}`);
    rejections.rejected('gateway', 'invalid-payload', 'bad row');
    now = 1_000;
    rejections.rejected('hub', 'not-json', 'junk again');

    expect(await counted(registry)).toEqual({ 'hub not-json': 501, 'gateway invalid-payload': 1 });
    expect(lines).toEqual([
      'junk 0 (rejected: hub not-json)',
      'bad row (rejected: gateway invalid-payload)',
      'junk again (rejected: hub not-json; 499 more since the last report)',
    ]);
  });

  it('cuts a long detail short', () => {
    const lines: string[] = [];
    new UpstreamRejections({ warn: (line) => lines.push(line) }).rejected(
      'rest',
      'not-json',
      'x'.repeat(5_000),
    );
    expect(lines[0].length).toBeLessThan(600);
  });
});
