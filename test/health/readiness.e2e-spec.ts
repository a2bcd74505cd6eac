import request from 'supertest';
import { startTestStack, TestStack } from '../support/start-test-stack';
import { setFault } from '../support/truth';

async function until<T>(
  read: () => Promise<T>,
  accept: (value: T) => boolean,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (accept(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('readiness and the age of the data', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startTestStack({
      redis: false,
      sandbox: { SANDBOX_FLOW_RATE: '5' },
      sandboxTuning: { hubKeepAliveMs: 500 },
      tuning: { staleAfterMs: 2000, upstreamServerTimeoutMs: 1500, upstreamKeepAliveMs: 500 },
    });
  });
  afterAll(() => stack.close());

  const ready = () => request(stack.app.url).get('/health/ready');

  it('is ready once every listed book is live and its data fresh', async () => {
    const response = await until(ready, (r) => r.status === 200);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      status: 'ready',
      ingest: { ready: true, notLive: [] },
      api: { ready: true },
    });
  });

  it('confirms a halted market as current although it sends nothing', async () => {
    await new Promise((resolve) => setTimeout(resolve, 2500));
    // Past the staleness bound since the start: only a confirmation brings its age back under it.
    const response = await until(
      () => request(stack.app.url).get('/orderbook/ltc_btc'),
      (r) => r.status === 200 && Number(r.headers['x-data-age-ms']) < 2000,
    );
    expect(response.status).toBe(200);
    expect(Number(response.headers['x-data-age-ms'])).toBeLessThan(2000);
  });

  it('fails while the exchange is unreachable, and recovers when it is back', async () => {
    await setFault(stack.sandbox, 'drop-connections', true);
    try {
      const stale = await until(ready, (r) => r.body.api?.ready === false);
      expect(stale.status).toBe(503);
      expect(stale.body.api.ready).toBe(false);
      expect(stale.body.api.dataAgeMs).toBeGreaterThan(2000);
      const summary = await request(stack.app.url).get('/summary').expect(200);
      expect(Number(summary.headers['x-data-age-ms'])).toBeGreaterThan(2000);
    } finally {
      await setFault(stack.sandbox, 'drop-connections', false);
    }
    expect((await until(ready, (r) => r.status === 200)).status).toBe(200);
  });

  it('serves liveness and metrics whatever the data', async () => {
    await request(stack.app.url).get('/health/live').expect(200, { status: 'ok' });
    const metrics = await request(stack.app.url).get('/metrics').expect(200);
    expect(metrics.text).toMatch(/^mdg_instrument_data_age_seconds\{instrument="ltc_btc"\} \d/m);
  });
});
