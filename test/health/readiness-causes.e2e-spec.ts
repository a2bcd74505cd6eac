import Redis from 'ioredis';
import { loadConfig } from '../../src/config/load-config';
import { RunningApp, startApp } from '../../src/start-app';
import { resolveUpstream } from '../../src/upstream/upstream-settings';
import { freePort, startRedisServer, TestRedisServer } from '../support/redis-server';
import { startTestStack, TestStack } from '../support/start-test-stack';

const REDIS_PASSWORD = 'Readiness-Pa55word-r4Wd';

async function requirePassword(redis: TestRedisServer): Promise<void> {
  const admin = new Redis(redis.url);
  await admin.config('SET', 'requirepass', REDIS_PASSWORD);
  admin.disconnect();
}

interface ReadyBody {
  readonly status: string;
  readonly store: { readonly reachable: boolean; readonly error?: string };
}

describe('readiness names the cause when Redis is down', () => {
  let redis: TestRedisServer;
  let stack: TestStack;
  let address: string;

  beforeAll(async () => {
    redis = await startRedisServer();
    if (!redis.canKill) return;
    await requirePassword(redis);
    const url = new URL(redis.url);
    url.password = REDIS_PASSWORD;
    address = `${url.hostname}:${url.port}`;
    stack = await startTestStack({ redis: false, app: { REDIS_URL: url.toString() } });
  });

  afterAll(async () => {
    await stack?.close();
    await redis?.stop();
  });

  async function ready(): Promise<{ status: number; text: string; body: ReadyBody }> {
    const response = await fetch(`${stack.app.url}/health/ready`);
    const text = await response.text();
    return { status: response.status, text, body: JSON.parse(text) as ReadyBody };
  }

  async function until(
    accept: (body: ReadyBody) => boolean,
  ): Promise<{ status: number; text: string; body: ReadyBody }> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const answer = await ready();
      if (accept(answer.body) || Date.now() > deadline) return answer;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it('says "Redis unreachable at host:port: connection refused", without ioredis text or the password', async () => {
    if (!redis.canKill) return;
    expect((await until((body) => body.status === 'ready')).status).toBe(200);
    await redis.kill();
    const expected = `Redis unreachable at ${address}: connection refused`;
    const down = await until((body) => body.store.error === expected);
    expect(down.status).toBe(503);
    expect(down.body.store).toEqual({ reachable: false, error: expected });
    expect(down.text).not.toContain(REDIS_PASSWORD);
    expect(down.text).not.toMatch(/enableOfflineQueue|Stream isn't writeable/);
    // Back, so that every connection of the application can close.
    await redis.restart();
    await requirePassword(redis);
    expect((await until((body) => body.status === 'ready')).status).toBe(200);
  });
});

describe('readiness names the cause when the exchange is unreachable', () => {
  let app: RunningApp;
  let exchange: string;

  beforeAll(async () => {
    exchange = `127.0.0.1:${await freePort()}`;
    const config = loadConfig({
      HOST: '127.0.0.1',
      PORT: '0',
      ROLE: 'all',
      UPSTREAM_BASE_URL: `http://${exchange}`,
    });
    app = await startApp(config, resolveUpstream(config, undefined), ['error']);
  });

  afterAll(async () => {
    await app?.close();
  });

  it('shows each upstream connection with the reason it is down', async () => {
    const expected = {
      hub: `connecting: market-data hub unreachable at http://${exchange}/marketdata/info: connection refused`,
      gateway: `reconnecting: unreachable at ws://${exchange}/WSGateway/: connection refused`,
    };
    const deadline = Date.now() + 30_000;
    let body: { ingest?: { upstream?: unknown } } = {};
    let status = 0;
    while (Date.now() < deadline) {
      const response = await fetch(`${app.url}/health/ready`);
      status = response.status;
      body = (await response.json()) as typeof body;
      if (JSON.stringify(body.ingest?.upstream) === JSON.stringify(expected)) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe(503);
    expect(body.ingest?.upstream).toEqual(expected);
  });
});
