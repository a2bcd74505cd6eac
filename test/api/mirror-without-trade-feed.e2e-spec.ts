import request from 'supertest';
import { startTestStack, TestStack } from '../support/start-test-stack';

const RANGE = 'startDate=2024-05-01T00:00:00&endDate=2024-05-02T00:00:00&type=1h';

describe('the mirror without a trade feed', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startTestStack({ credentials: false, redis: false });
  });
  afterAll(() => stack.close());

  const get = (path: string) => request(stack.app.url).get(path);

  /** The first answer of `path` that satisfies `done`, or the last one after 20 s (a loaded machine starts slowly). */
  async function poll(path: string, done: (response: request.Response) => boolean) {
    const deadline = Date.now() + 20_000;
    let response = await get(path);
    while (!done(response) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      response = await get(path);
    }
    return response;
  }

  it('/history answers 503 saying that the trade feed is not configured', async () => {
    const response = await poll(
      `/marketdata/instruments/btc_usdt/history?${RANGE}`,
      (r) => r.body.errors?.[0]?.code === 'trade_feed_not_configured',
    );
    expect(response.status).toBe(503);
    expect(response.body).toEqual({
      errors: [{ code: 'trade_feed_not_configured', message: expect.stringMatching(/UPSTREAM_EMAIL/) }],
    });
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('still validates the query first and still serves the market list and the books', async () => {
    await get('/marketdata/instruments/btc_usdt/history?type=4h').expect(400);
    const depth = await poll('/marketdata/instruments/btc_usdt/depth', (r) => r.status === 200);
    expect(depth.status).toBe(200);
    expect(depth.text).toMatch(/^\{"instrument":"btc_usdt","bids":\[/);
    const info = await get('/frontoffice/api/info').expect(200);
    expect(info.text).toMatch(/^\{"serverTime":\d{18},"pairs":\{/);
  });
});
