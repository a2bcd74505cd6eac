import { LISTED } from '../support/fault-cases';
import { waitFor } from '../support/fault-run';
import { MetricSample, readMetrics, sampleValue } from '../support/metrics-text';
import { startTestStack, TestStack } from '../support/start-test-stack';
import { expectConverges, readTruth, setFault } from '../support/truth';

/** Runs `count` synthetic operations on one market at once, whatever the flow. */
async function step(stack: TestStack, instrument: string, count: number): Promise<void> {
  const response = await fetch(`${stack.sandbox.baseUrl}/sandbox/markets/${instrument}/step`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ count }),
  });
  if (!response.ok) throw new Error(`step: ${response.status}`);
}

/**
 * `/metrics` shows, per instrument, the sync state, resyncs by reason, gaps, the age of the last
 * update and the trades in the window, and the state of every upstream connection; a gap in one
 * market's feed is counted for that market alone.
 */
describe('ingest metrics', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startTestStack({ sandbox: { SANDBOX_FLOW_RATE: '20' } });
    await expectConverges(stack.sandbox, stack.store, LISTED, 15_000);
  });
  afterAll(() => stack.close());

  it('per instrument: live, recently updated, every 24-hour trade; per connection: connected', async () => {
    const metrics = await readMetrics(stack.app.url);
    for (const instrument of LISTED) {
      expect(sampleValue(metrics, 'mdg_book_sync_state', { instrument, state: 'live' })).toBe(1);
      expect(sampleValue(metrics, 'mdg_book_sync_state', { instrument, state: 'resync' })).toBe(0);
      const trades = (await readTruth(stack.sandbox, instrument)).trades.length;
      expect(sampleValue(metrics, 'mdg_trades_in_window', { instrument })).toBe(trades);
    }
    // The halted and paused markets move no more, but their feeds spoke at the start.
    const age = sampleValue(metrics, 'mdg_instrument_last_update_age_seconds', { instrument: 'btc_usdt' });
    expect(age).toBeGreaterThanOrEqual(0);
    expect(age).toBeLessThan(10);
    expect(
      sampleValue(metrics, 'mdg_upstream_connection_state', { connection: 'hub', state: 'connected' }),
    ).toBe(1);
    expect(
      sampleValue(metrics, 'mdg_upstream_connection_state', { connection: 'gateway', state: 'connected' }),
    ).toBe(1);
  });

  it("shows the REST budget per family: the exchange's limit and what counts against it", async () => {
    const metrics = await readMetrics(stack.app.url);
    for (const [family, limit] of [
      ['frontoffice', 1],
      ['marketdata', 2],
    ] as const) {
      expect(sampleValue(metrics, 'mdg_rest_budget_limit', { family })).toBe(limit);
      const counting = sampleValue(metrics, 'mdg_rest_budget_counting', { family })!;
      expect(counting).toBeGreaterThanOrEqual(0);
      expect(counting).toBeLessThanOrEqual(limit);
      expect(sampleValue(metrics, 'mdg_rest_budget_waiting', { family })).toBeGreaterThanOrEqual(0);
    }
    const ready = (await (await fetch(`${stack.app.url}/health/ready`)).json()) as {
      ingest: { restBudget: { family: string; scope: string }[] };
    };
    const scopes = ready.ingest.restBudget.map(({ family, scope }) => `${family}:${scope}`);
    expect(scopes.sort()).toEqual(
      stack.redis
        ? ['frontoffice:deployment', 'marketdata:deployment']
        : ['frontoffice:process', 'marketdata:process'],
    );
  });

  it('a gap in one market counts a gap and a resync for that market only', async () => {
    const counts = (metrics: MetricSample[], instrument: string) => ({
      gaps: sampleValue(metrics, 'mdg_book_gaps_total', { instrument }) ?? 0,
      resyncs: sampleValue(metrics, 'mdg_book_resyncs_total', { instrument, reason: 'gap' }) ?? 0,
    });
    const before = await readMetrics(stack.app.url);
    // The market is still, so the one withheld delta is btc_usdt's; the ones after it show the gap.
    await setFault(stack.sandbox, 'skip-version', true, { count: 1 });
    await step(stack, 'btc_usdt', 20);
    let after = before;
    await waitFor(async () => {
      after = await readMetrics(stack.app.url);
      return counts(after, 'btc_usdt').gaps > counts(before, 'btc_usdt').gaps;
    }, 'a gap counted for btc_usdt');
    expect(counts(after, 'btc_usdt')).toEqual({
      gaps: counts(before, 'btc_usdt').gaps + 1,
      resyncs: counts(before, 'btc_usdt').resyncs + 1,
    });
    for (const instrument of LISTED.filter((name) => name !== 'btc_usdt'))
      expect(counts(after, instrument)).toEqual(counts(before, instrument));
    await expectConverges(stack.sandbox, stack.store, ['btc_usdt']);
    const healed = await readMetrics(stack.app.url);
    expect(sampleValue(healed, 'mdg_book_sync_state', { instrument: 'btc_usdt', state: 'live' })).toBe(1);
  });
});
