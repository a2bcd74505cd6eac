import { once } from 'node:events';
import { createServer, Server } from 'node:net';
import Redis from 'ioredis';
import { freePort, startRedisServer, TestRedisServer } from '../support/redis-server';
import { expectCleanExit, GatewayRun, runGateway, waitForStatus } from './support/gateway-run';

jest.setTimeout(90_000);

type Line = Record<string, unknown>;

/** Every line of `text`, each parsed as the JSON object it must be. */
function jsonLines(text: string): Line[] {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        throw new Error(`a line that is not JSON: ${line}`);
      }
      expect(typeof parsed).toBe('object');
      return parsed as Line;
    });
}

async function until(condition: () => boolean, run: GatewayRun, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (run.exited || Date.now() > deadline)
      throw new Error(`the condition did not hold in time:\n${run.stdout()}\n${run.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function occupy(port: number): Promise<Server> {
  const server = createServer();
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  return server;
}

describe('start-up output of the real build', () => {
  const runs: GatewayRun[] = [];

  afterAll(async () => {
    await Promise.all(runs.map((run) => run.kill()));
  });

  async function start(env: Record<string, string>): Promise<GatewayRun> {
    const run = await runGateway(env);
    runs.push(run);
    return run;
  }

  it('prints only JSON lines: the sandbox banner as fields, then one ready line', async () => {
    const sandboxPort = await freePort();
    const run = await start({ SANDBOX_PORT: String(sandboxPort) });
    const readyLines = (): Line[] =>
      jsonLines(run.stdout()).filter((line) => String(line.msg).startsWith('ready:'));
    await until(() => readyLines().length > 0, run, 60_000);
    await waitForStatus(run, '/health/ready', 200, 30_000);
    run.signal('SIGTERM');
    await expectCleanExit(run);

    const lines = jsonLines(run.stdout());
    expect(jsonLines(run.stderr())).toEqual([]);
    for (const line of lines) expect(line).toEqual(expect.objectContaining({ level: expect.any(String) }));

    const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
    const banner = lines.find((line) => line.context === 'Sandbox');
    expect(banner).toMatchObject({
      level: 'info',
      url: sandboxUrl,
      markets: expect.any(Number),
      rest: expect.arrayContaining([`${sandboxUrl}/frontoffice/api/info`]),
      hub: `${sandboxUrl}/marketdata/info`,
      gateway: `ws://127.0.0.1:${sandboxPort}/WSGateway/`,
      login: `${sandboxUrl}/api/v1/trade/auth`,
      demoUser: expect.stringContaining('demo@example.com'),
      control: expect.arrayContaining([`${sandboxUrl}/sandbox/faults`]),
    });
    expect(String(banner!.msg)).not.toContain('\n');

    const ready = readyLines();
    expect(ready).toHaveLength(1);
    expect(ready[0]).toMatchObject({
      level: 'info',
      role: 'all',
      markets: expect.any(Number),
      booksLive: expect.any(Number),
      startupMs: expect.any(Number),
      url: run.url,
    });
    expect(ready[0].markets).toBeGreaterThan(0);
    expect(ready[0].booksLive).toBe(ready[0].markets);
  });

  it.each(['PORT', 'SANDBOX_PORT'])(
    'a %s in use is one fatal line naming it, and status 1',
    async (setting) => {
      const port = await freePort();
      const server = await occupy(port);
      try {
        const run = await start({
          [setting]: String(port),
          ...(setting === 'PORT' ? {} : { ROLE: 'sandbox' }),
        });
        expect(await run.exit).toBe(1);
        const lines = [...jsonLines(run.stdout()), ...jsonLines(run.stderr())];
        const problems = lines.filter((line) => line.level === 'fatal' || line.level === 'error');
        expect(problems).toEqual([
          expect.objectContaining({
            level: 'fatal',
            msg: `${setting} ${port} is already in use on 127.0.0.1 (EADDRINUSE): set ${setting} to a free port`,
          }),
        ]);
        expect(`${run.stdout()}${run.stderr()}`).not.toMatch(/\n\s+at /);
      } finally {
        server.close();
      }
    },
  );

  describe('with a Redis whose eviction policy BullMQ warns about', () => {
    let redis: TestRedisServer;

    beforeAll(async () => {
      redis = await startRedisServer();
      const admin = new Redis(redis.url);
      await admin.config('SET', 'maxmemory-policy', 'allkeys-lru');
      admin.disconnect();
    });

    afterAll(async () => {
      if (redis?.canKill) await redis.stop();
      else {
        const admin = new Redis(redis.url);
        await admin.config('SET', 'maxmemory-policy', 'noeviction');
        admin.disconnect();
      }
    });

    it('logs what dependencies print on the console as JSON lines too', async () => {
      const run = await start({
        ROLE: 'ingest',
        REDIS_URL: redis.url,
        SANDBOX_PORT: String(await freePort()),
      });
      // The warning comes early in the start; a signal before the start is over would not be handled.
      await until(
        () => /Eviction policy/.test(run.stdout()) && /Gateway \(ingest\) listening on/.test(run.stdout()),
        run,
        60_000,
      );
      run.signal('SIGTERM');
      await expectCleanExit(run);
      expect(jsonLines(run.stderr())).toEqual([]);
      expect(jsonLines(run.stdout())).toContainEqual(
        expect.objectContaining({
          level: 'warn',
          context: 'console',
          msg: expect.stringMatching(/^IMPORTANT! Eviction policy is allkeys-lru/),
        }),
      );
    });
  });
});
