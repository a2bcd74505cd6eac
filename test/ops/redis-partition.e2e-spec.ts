import request from 'supertest';
import { untilConverged } from '../chaos/truth-checker';
import { LISTED } from '../support/fault-cases';
import { sleep } from '../support/fault-run';
import { startRedisServer, TestRedisServer } from '../support/redis-server';
import { SilentProxy } from '../support/silent-proxy';
import { startTestStack, TestStack } from '../support/start-test-stack';
import { setFlow } from '../support/truth';

const PATHS = ['/summary', '/ticker', '/orderbook/BTC_USDT?depth=20', '/trades/BTC_USDT'];

/**
 * The whole service cut off from Redis by a path that goes silent without closing: it notices within
 * the command timeout, keeps answering with the last good state marked `X-Data-Stale`, reports
 * itself not ready, and once the path heals serves exactly the exchange's books and trades again.
 */
describe('a network partition between the gateway and Redis', () => {
  let redis: TestRedisServer;
  let proxy: SilentProxy;
  let stack: TestStack;

  beforeAll(async () => {
    redis = await startRedisServer();
    proxy = await SilentProxy.start(Number(new URL(redis.url).port));
    stack = await startTestStack({
      redis: false,
      sandbox: { SANDBOX_FLOW_RATE: '10' },
      app: { REDIS_URL: proxy.url, RATE_LIMIT_PER_MINUTE: '0' },
      tuning: { redisCommandTimeoutMs: 500 },
    });
    const converged = await untilConverged(stack.sandbox, LISTED, () => [stack.app.url], 30_000);
    expect(converged).toMatchObject({ converged: true });
  }, 60_000);

  afterAll(async () => {
    await stack?.close();
    await proxy?.close();
    await redis?.stop();
  }, 30_000);

  it('serves the last good state marked stale while cut off, then converges once healed', async () => {
    for (const path of PATHS) {
      const fresh = await request(stack.app.url).get(path);
      expect([path, fresh.status, fresh.headers['x-data-stale']]).toEqual([path, 200, undefined]);
    }
    proxy.partition();
    try {
      await setFlow(stack.sandbox, 10);
      await waitUntil(async () => (await request(stack.app.url).get('/health/ready')).status === 503);
      await waitUntil(
        async () => (await request(stack.app.url).get(PATHS[0])).headers['x-data-stale'] === 'true',
      );
      const cutOff = await Promise.all(PATHS.map((path) => request(stack.app.url).get(path)));
      // The market moves on meanwhile; what is served stays the last good state.
      await sleep(1_000);
      for (const [index, path] of PATHS.entries()) {
        const later = await request(stack.app.url).get(path);
        expect([path, cutOff[index].status, cutOff[index].headers['x-data-stale']]).toEqual([
          path,
          200,
          'true',
        ]);
        expect([path, later.status, later.headers['x-data-stale']]).toEqual([path, 200, 'true']);
        expect(later.body).toEqual(cutOff[index].body);
      }
    } finally {
      proxy.heal();
    }

    const converged = await untilConverged(stack.sandbox, LISTED, () => [stack.app.url], 30_000);
    expect(converged).toMatchObject({ converged: true });
    await waitUntil(async () => (await request(stack.app.url).get('/health/ready')).status === 200);
    for (const path of PATHS) {
      const healed = await request(stack.app.url).get(path);
      expect([path, healed.status, healed.headers['x-data-stale']]).toEqual([path, 200, undefined]);
    }
  }, 90_000);
});

async function waitUntil(condition: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms`);
    await sleep(100);
  }
}
