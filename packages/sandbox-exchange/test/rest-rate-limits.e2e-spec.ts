import { request } from 'node:http';
import { RunningSandbox } from '../src/start-sandbox';
import { startTestSandbox } from './support/start-test-sandbox';

jest.setTimeout(20_000);

interface Answer {
  readonly status: number;
  readonly text: string;
}

interface CallOptions {
  /** Local address the call comes from; every 127.x.y.z address reaches the loopback listener. */
  readonly from?: string;
  readonly method?: string;
  readonly body?: unknown;
}

/** One HTTP call on a fresh connection, from a chosen client address. */
function call(sandbox: RunningSandbox, path: string, options: CallOptions = {}): Promise<Answer> {
  const { from = '127.0.0.1', method = 'GET', body } = options;
  return new Promise((resolve, reject) => {
    const outgoing = request(
      `${sandbox.baseUrl}${path}`,
      {
        method,
        localAddress: from,
        agent: false,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

interface FamilyStats {
  served: number;
  limited: number;
  failed: number;
}

type Stats = Record<'frontoffice' | 'marketdata', FamilyStats>;

async function stats(sandbox: RunningSandbox): Promise<Stats> {
  const answer = await call(sandbox, '/sandbox/stats');
  expect(answer.status).toBe(200);
  return JSON.parse(answer.text) as Stats;
}

function difference(after: Stats, before: Stats): Stats {
  const family = (name: keyof Stats): FamilyStats => ({
    served: after[name].served - before[name].served,
    limited: after[name].limited - before[name].limited,
    failed: after[name].failed - before[name].failed,
  });
  return { frontoffice: family('frontoffice'), marketdata: family('marketdata') };
}

async function setFault(sandbox: RunningSandbox, body: Record<string, unknown>): Promise<void> {
  const answer = await call(sandbox, '/sandbox/faults', { method: 'POST', body });
  expect(answer.status).toBe(200);
}

const INFO = '/frontoffice/api/info';
const DEPTH = '/marketdata/instruments/btc_usdt/depth';
/** A cheap /marketdata/ call: a valid history query over a range without trades. */
const EMPTY_HISTORY =
  '/marketdata/instruments/btc_usdt/history?startDate=2001-01-01T00:00:00&endDate=2001-01-02T00:00:00&type=1h';
const OVERLOADED = '{"errors":[{"code":"","message":"System is currently overloaded"}]}';

function expectTooManyRequests(answer: Answer, pattern: RegExp): void {
  expect(answer.status).toBe(429);
  const body = JSON.parse(answer.text) as { errors: { code: string; message: string }[] };
  expect(body.errors).toHaveLength(1);
  expect(body.errors[0].code).toBe('too_many_requests');
  expect(body.errors[0].message).toMatch(pattern);
}

/**
 * Every test calls from its own loopback address, so that the one-second windows of one test never
 * hold up the next.
 */
let nextAddress = 10;
function freshAddress(): string {
  return `127.0.0.${nextAddress++}`;
}

describe('sandbox REST rate limits and REST faults', () => {
  let limited: RunningSandbox;
  let unlimited: RunningSandbox;

  beforeAll(async () => {
    [limited, unlimited] = await Promise.all([
      startTestSandbox({ SANDBOX_FLOW_RATE: '0', SANDBOX_HISTORY_HOURS: '0' }),
      startTestSandbox({ SANDBOX_FLOW_RATE: '0', SANDBOX_HISTORY_HOURS: '0', SANDBOX_RATE_LIMITS: 'false' }),
    ]);
  });

  afterAll(async () => {
    await Promise.all([limited?.close(), unlimited?.close()]);
  });

  it('allows 1 request per second under /frontoffice/: the second quick call gets 429', async () => {
    const from = freshAddress();
    expect((await call(limited, INFO, { from })).status).toBe(200);
    expectTooManyRequests(await call(limited, INFO, { from }), /1 request per second under \/frontoffice\//);
  });

  it('allows 2 requests per second under /marketdata/, across its endpoints', async () => {
    const from = freshAddress();
    expect((await call(limited, DEPTH, { from })).status).toBe(200);
    expect((await call(limited, EMPTY_HISTORY, { from })).status).toBe(200);
    expectTooManyRequests(await call(limited, DEPTH, { from }), /2 requests per second under \/marketdata\//);
  });

  it('lets a client through again once a second has passed since its first call', async () => {
    const from = freshAddress();
    const start = Date.now();
    expect((await call(limited, INFO, { from })).status).toBe(200);
    expect((await call(limited, INFO, { from })).status).toBe(429);
    let answer = await call(limited, INFO, { from });
    while (answer.status === 429) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      answer = await call(limited, INFO, { from });
    }
    const waited = Date.now() - start;
    expect(answer.status).toBe(200);
    expect(waited).toBeGreaterThanOrEqual(990);
    expect(waited).toBeLessThan(3000);
  });

  it('limits each client address on its own', async () => {
    const first = freshAddress();
    const second = freshAddress();
    expect((await call(limited, INFO, { from: first })).status).toBe(200);
    expect((await call(limited, INFO, { from: first })).status).toBe(429);
    expect((await call(limited, INFO, { from: second })).status).toBe(200);
  });

  it('limits each path family on its own', async () => {
    const from = freshAddress();
    expect((await call(limited, INFO, { from })).status).toBe(200);
    expect((await call(limited, INFO, { from })).status).toBe(429);
    expect((await call(limited, DEPTH, { from })).status).toBe(200);
  });

  it('never limits the control endpoints or the hub negotiation', async () => {
    const from = freshAddress();
    for (let i = 0; i < 6; i++) {
      expect((await call(limited, '/sandbox/stats', { from })).status).toBe(200);
      expect((await call(limited, '/sandbox/faults', { from })).status).toBe(200);
      expect((await call(limited, '/sandbox/truth/btc_usdt', { from })).status).toBe(200);
      const negotiate = await call(limited, '/marketdata/info/negotiate?negotiateVersion=1', {
        from,
        method: 'POST',
      });
      expect(negotiate.status).not.toBe(429);
    }
  });

  it('counts served and limited calls per family', async () => {
    const from = freshAddress();
    const before = await stats(limited);
    const statuses = [];
    for (const path of [INFO, INFO, DEPTH, DEPTH, DEPTH, '/marketdata/unknown']) {
      statuses.push((await call(limited, path, { from })).status);
    }
    expect(statuses).toEqual([200, 429, 200, 200, 429, 429]);
    expect(difference(await stats(limited), before)).toEqual({
      frontoffice: { served: 1, limited: 1, failed: 0 },
      marketdata: { served: 2, limited: 2, failed: 0 },
    });
  });

  it('answers 503 "System is currently overloaded" on every REST path while rest-503 is on', async () => {
    const from = freshAddress();
    const before = await stats(limited);
    await setFault(limited, { name: 'rest-503', enabled: true });
    try {
      for (const path of [INFO, DEPTH]) {
        const answer = await call(limited, path, { from });
        expect(answer.status).toBe(503);
        expect(answer.text).toBe(OVERLOADED);
      }
      expect((await call(limited, '/sandbox/stats', { from })).status).toBe(200);
    } finally {
      await setFault(limited, { name: 'rest-503', enabled: false });
    }
    expect((await call(limited, DEPTH, { from: freshAddress() })).status).toBe(200);
    expect(difference(await stats(limited), before)).toEqual({
      frontoffice: { served: 0, limited: 0, failed: 1 },
      marketdata: { served: 1, limited: 0, failed: 1 },
    });
  });

  it('answers 429 while rest-429 is on, counted as failed, not as limited', async () => {
    const before = await stats(limited);
    await setFault(limited, { name: 'rest-429', enabled: true });
    try {
      expectTooManyRequests(await call(limited, DEPTH, { from: freshAddress() }), /under \/marketdata\//);
    } finally {
      await setFault(limited, { name: 'rest-429', enabled: false });
    }
    expect((await call(limited, DEPTH, { from: freshAddress() })).status).toBe(200);
    expect(difference(await stats(limited), before).marketdata).toEqual({ served: 1, limited: 0, failed: 1 });
  });

  it('lifts the limits with SANDBOX_RATE_LIMITS=false', async () => {
    const before = await stats(unlimited);
    for (let i = 0; i < 5; i++) {
      expect((await call(unlimited, INFO)).status).toBe(200);
      expect((await call(unlimited, EMPTY_HISTORY)).status).toBe(200);
    }
    expect(difference(await stats(unlimited), before)).toEqual({
      frontoffice: { served: 5, limited: 0, failed: 0 },
      marketdata: { served: 5, limited: 0, failed: 0 },
    });
  });

  it('fails about the given share of calls with a probability', async () => {
    const before = await stats(unlimited);
    await setFault(unlimited, { name: 'rest-503', enabled: true, probability: 0.5 });
    let overloaded = 0;
    try {
      for (let i = 0; i < 200; i++) {
        const answer = await call(unlimited, EMPTY_HISTORY);
        expect([200, 503]).toContain(answer.status);
        if (answer.status === 503) overloaded++;
      }
    } finally {
      await setFault(unlimited, { name: 'rest-503', enabled: false });
    }
    // Binomial(200, 0.5): 50..150 holds with a probability of 1 - 1e-12.
    expect(overloaded).toBeGreaterThanOrEqual(50);
    expect(overloaded).toBeLessThanOrEqual(150);
    expect(difference(await stats(unlimited), before).marketdata).toEqual({
      served: 200 - overloaded,
      limited: 0,
      failed: overloaded,
    });
  });

  it('never fails a call with probability 0', async () => {
    await setFault(unlimited, { name: 'rest-429', enabled: true, probability: 0 });
    try {
      for (let i = 0; i < 20; i++) expect((await call(unlimited, EMPTY_HISTORY)).status).toBe(200);
    } finally {
      await setFault(unlimited, { name: 'rest-429', enabled: false });
    }
  });
});
