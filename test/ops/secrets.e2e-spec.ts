import Redis from 'ioredis';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LoginSessions, RunningSandbox } from 'sandbox-exchange';
import { startRedisServer, TestRedisServer } from '../support/redis-server';
import { startTestSandbox } from '../support/start-test-sandbox';
import { expectCleanExit, GatewayRun, runGateway, waitForStatus } from './support/gateway-run';

jest.setTimeout(90_000);

const EMAIL = 'ops-trader@example.com';
const PASSWORD = 'Upstream-Pa55word-q8Zr';
const WRONG_PASSWORD = 'Wrong-Pa55word-k3Lx';
const REDIS_PASSWORD = 'Redis-Pa55word-v7Tn';

/** Paths whose answers must not carry a secret either: errors of every kind, health and metrics. */
const PROBES = [
  '/metrics',
  '/health/ready',
  '/health/live',
  '/orderbook/NO_SUCH_MARKET',
  '/orderbook/%ZZ',
  '/orderbook/BTC_USDT?depth=3',
  '/trades/btc-usdt?limit=abc',
  '/no/such/endpoint',
  '/summary',
];

async function probeBodies(run: GatewayRun): Promise<string> {
  const bodies: string[] = [];
  for (const path of PROBES) {
    const response = await fetch(`${run.url}${path}`, { headers: { 'x-request-id': 'ops-probe' } });
    bodies.push(
      `${path} ${response.status}\n${JSON.stringify([...response.headers])}\n${await response.text()}`,
    );
  }
  return bodies.join('\n');
}

async function fault(sandbox: RunningSandbox, name: string, enabled = true): Promise<void> {
  const response = await fetch(`${sandbox.baseUrl}/sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, enabled }),
  });
  expect(response.status).toBeLessThan(300);
}

function expectNoSecret(text: string, secrets: readonly string[]): void {
  for (const secret of secrets) {
    // Reported by name, so that a failure does not print the text it found the secret in.
    expect({ secret, found: text.includes(secret) }).toEqual({ secret, found: false });
  }
}

describe('credentials and tokens never leave the process (real build against the sandbox)', () => {
  let directory: string;
  let sandbox: RunningSandbox;
  const tokens: string[] = [];
  const runs: GatewayRun[] = [];

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'mdg-ops-'));
    const usersFile = join(directory, 'users.json');
    writeFileSync(
      usersFile,
      JSON.stringify([{ userId: 1, email: EMAIL, password: PASSWORD, operator: true }]),
    );
    sandbox = await startTestSandbox({ SANDBOX_USERS_FILE: usersFile });
    // Every token the exchange hands out, to look for them in what the gateway prints.
    const sessions = sandbox.app.get(LoginSessions);
    const open = sessions.open.bind(sessions);
    jest.spyOn(sessions, 'open').mockImplementation((user) => {
      const session = open(user);
      tokens.push(session.sessionToken, session.token);
      return session;
    });
  });

  afterAll(async () => {
    await Promise.all(runs.map((run) => run.kill()));
    await sandbox?.close();
    rmSync(directory, { recursive: true, force: true });
  });

  function upstream(password: string): Record<string, string> {
    return {
      UPSTREAM_BASE_URL: sandbox.baseUrl,
      UPSTREAM_AUTH_URL: sandbox.authUrl,
      UPSTREAM_WS_URL: sandbox.wsUrl,
      UPSTREAM_EMAIL: EMAIL,
      UPSTREAM_PASSWORD: password,
    };
  }

  async function start(env: Record<string, string>): Promise<GatewayRun> {
    const run = await runGateway({ RATE_LIMIT_PER_MINUTE: '0', ...env });
    runs.push(run);
    return run;
  }

  async function stop(run: GatewayRun): Promise<void> {
    run.signal('SIGTERM');
    await expectCleanExit(run);
  }

  it('logs in, loses its connections and sessions, and shows none of the password and tokens', async () => {
    const run = await start({
      ROLE: 'all',
      BOOK_SOURCE: 'gateway',
      LOG_LEVEL: 'trace',
      ...upstream(PASSWORD),
    });
    await waitForStatus(run, '/health/ready', 200, 40_000);
    expect(tokens.length).toBeGreaterThan(0);
    await fault(sandbox, 'drop-connections');
    await new Promise((resolve) => setTimeout(resolve, 500));
    await fault(sandbox, 'drop-connections', false);
    await fault(sandbox, 'expire-sessions');
    const loggedIn = tokens.length;
    await waitForStatus(run, '/health/ready', 200, 30_000);
    const deadline = Date.now() + 20_000;
    while (tokens.length === loggedIn && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect(tokens.length).toBeGreaterThan(loggedIn);
    const bodies = await probeBodies(run);
    await stop(run);

    const printed = `${run.stdout()}\n${run.stderr()}`;
    expect(printed).toMatch(/"level":"(debug|trace)"/);
    expect(bodies).toContain('["x-request-id","ops-probe"]');
    expect(bodies).toContain('mdg_http_requests_total');
    expectNoSecret(`${printed}\n${bodies}`, [PASSWORD, encodeURIComponent(PASSWORD), ...tokens]);
  });

  it('refused logins show no password', async () => {
    const run = await start({
      ROLE: 'all',
      BOOK_SOURCE: 'gateway',
      LOG_LEVEL: 'debug',
      ...upstream(WRONG_PASSWORD),
    });
    await waitForStatus(run, '/health/live', 200, 30_000);
    const deadline = Date.now() + 20_000;
    while (!/login failed/i.test(run.stdout()) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 200));
    expect(run.stdout()).toMatch(/login failed/i);
    const bodies = await probeBodies(run);
    await stop(run);
    expectNoSecret(`${run.stdout()}\n${run.stderr()}\n${bodies}`, [WRONG_PASSWORD, PASSWORD]);
  });

  it('configuration errors name the bad keys, not the secret values', async () => {
    const run = await start({
      ROLE: 'all',
      PORT: 'not-a-port',
      REDIS_URL: `redis://:${REDIS_PASSWORD}@127.0.0.1:not-a-port`,
      ...upstream(PASSWORD),
      UPSTREAM_EMAIL: '',
    });
    expect(await run.exit).toBe(1);
    const printed = `${run.stdout()}\n${run.stderr()}`;
    expect(printed).toContain('PORT');
    expect(printed).toContain('REDIS_URL');
    expect(printed).toContain('UPSTREAM_EMAIL and UPSTREAM_PASSWORD');
    expectNoSecret(printed, [PASSWORD, REDIS_PASSWORD]);
  });

  describe('with a Redis that refuses the password', () => {
    let redis: TestRedisServer;

    beforeAll(async () => {
      redis = await startRedisServer();
      const admin = new Redis(redis.url);
      await admin.config('SET', 'requirepass', 'another-password');
      admin.disconnect();
    });

    afterAll(async () => {
      await redis?.stop();
    });

    it('counts the Redis errors and shows no Redis password', async () => {
      const url = new URL(redis.url);
      url.password = REDIS_PASSWORD;
      const run = await start({ ROLE: 'api', REDIS_URL: url.toString(), LOG_LEVEL: 'debug' });
      await waitForStatus(run, '/health/live', 200, 30_000);
      const deadline = Date.now() + 15_000;
      let metrics = '';
      while (!/mdg_redis_errors_total\{[^}]*\} [1-9]/.test(metrics) && Date.now() < deadline) {
        metrics = await (await fetch(`${run.url}/metrics`)).text();
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(metrics).toMatch(/mdg_redis_errors_total\{connection="Redis"\} [1-9]/);
      const bodies = await probeBodies(run);
      await stop(run);
      expectNoSecret(`${run.stdout()}\n${run.stderr()}\n${bodies}`, [REDIS_PASSWORD]);
    });
  });
});
