import { feedFrame } from '../support/feed-frames';
import { startTestStack, TestStack } from '../support/start-test-stack';
import { waitFor } from '../support/fault-run';

/** An API response of each kind: a cached body on the fast path and through Fastify, an error, health. */
const PATHS = [
  '/summary',
  '/orderbook/btc_usdt',
  '/orderbook/btc_usdt?depth=2',
  '/orderbook/nope_usdt',
  '/health/ready',
];

describe.each([
  ['the in-process sandbox (SANDBOX=true)', false, 'sandbox'],
  ['an exchange at UPSTREAM_BASE_URL', true, null],
])('a gateway fed by %s', (_name, asExchange, marker) => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startTestStack({
      asExchange,
      redis: false,
      sandbox: { SANDBOX_FLOW_RATE: '0', SANDBOX_RATE_LIMITS: 'false' },
    });
    await waitFor(
      async () => (await fetch(`${stack.app.url}/summary`)).status === 200,
      'the listing served',
      30_000,
      100,
    );
  }, 60_000);
  afterAll(() => stack?.close());

  it(`says ${marker ?? 'nothing of a sandbox'} in X-Data-Source on every API response`, async () => {
    for (const path of PATHS) {
      const response = await fetch(`${stack.app.url}${path}`);
      expect([path, response.headers.get('x-data-source')]).toEqual([path, marker]);
    }
  });

  it(`says ${marker ? 'so' : 'nothing'} in /health/ready and in the pages' feeds`, async () => {
    const ready = (await (await fetch(`${stack.app.url}/health/ready`)).json()) as Record<string, unknown>;
    expect(ready.sandbox).toBe(marker ? true : undefined);
    expect((ready.api as Record<string, unknown>).sandbox).toBe(marker ? true : undefined);
    expect((ready.ingest as Record<string, unknown>).sandbox).toBe(marker ? true : undefined);
    expect((await feedFrame(`${stack.app.url}/console/feed`)).sandbox).toBe(Boolean(marker));
    expect((await feedFrame(`${stack.app.url}/status/feed`)).sandbox).toBe(Boolean(marker));
  });
});
