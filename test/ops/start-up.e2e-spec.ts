import { once } from 'node:events';
import { connect, createServer, Server } from 'node:net';
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

/** Another address of the loopback network: a server bound to 127.0.0.1 alone refuses it. */
const OTHER_LOOPBACK = '127.0.0.2';

async function connects(host: string, port: number): Promise<boolean> {
  const socket = connect(port, host);
  try {
    await once(socket, 'connect');
    return true;
  } catch {
    return false;
  } finally {
    socket.destroy();
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

  it('prints only JSON lines: the sandbox banner as fields, then one ready line that says sandbox', async () => {
    const sandboxPort = await freePort();
    const run = await start({ SANDBOX: 'true', HOST: '0.0.0.0', SANDBOX_PORT: String(sandboxPort) });
    const readyLines = (): Line[] =>
      jsonLines(run.stdout()).filter((line) => String(line.msg).startsWith('ready:'));
    await until(() => readyLines().length > 0, run, 60_000);
    await waitForStatus(run, '/health/ready', 200, 30_000);
    // The API listens on HOST, every address; the in-process sandbox on loopback alone.
    const apiPort = new URL(run.url).port;
    expect(await connects(OTHER_LOOPBACK, Number(apiPort))).toBe(true);
    expect(await connects('127.0.0.1', sandboxPort)).toBe(true);
    expect(await connects(OTHER_LOOPBACK, sandboxPort)).toBe(false);
    const readiness = await fetch(`${run.url}/health/ready`);
    expect(await readiness.json()).toMatchObject({ status: 'ready', sandbox: true });
    expect(readiness.headers.get('x-data-source')).toBe('sandbox');
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
      host: '127.0.0.1',
      port: sandboxPort,
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
      sandbox: true,
    });
    expect(ready[0].msg).toMatch(/the exchange is the built-in sandbox: simulated prices/);
    expect(ready[0].markets).toBeGreaterThan(0);
    expect(ready[0].booksLive).toBe(ready[0].markets);
  });

  it('opens the in-process sandbox to other addresses with SANDBOX_HOST', async () => {
    const sandboxPort = await freePort();
    const run = await start({ SANDBOX: 'true', SANDBOX_HOST: '0.0.0.0', SANDBOX_PORT: String(sandboxPort) });
    const banner = (): Line | undefined => jsonLines(run.stdout()).find((line) => line.context === 'Sandbox');
    // A signal before the start is over would not be handled: wait for the gateway's line too.
    await until(
      () => banner() !== undefined && /Gateway \(all\) listening on/.test(run.stdout()),
      run,
      60_000,
    );
    expect(banner()).toMatchObject({ host: '0.0.0.0', url: `http://127.0.0.1:${sandboxPort}` });
    expect(await connects(OTHER_LOOPBACK, sandboxPort)).toBe(true);
    run.signal('SIGTERM');
    await expectCleanExit(run);
  });

  it.each([
    [{}, 'all'],
    [{ ROLE: 'ingest', REDIS_URL: 'redis://127.0.0.1:1' }, 'ingest'],
  ])(
    'without an exchange or SANDBOX=true (%j) is one fatal line naming both, and status 1',
    async (env, role) => {
      const run = await start(env);
      expect(await run.exit).toBe(1);
      const lines = [...jsonLines(run.stdout()), ...jsonLines(run.stderr())];
      expect(lines).toEqual([
        expect.objectContaining({
          level: 'fatal',
          problems: [
            `UPSTREAM_BASE_URL: not set; ROLE=${role} ingests from the exchange at this URL ` +
              '(or set SANDBOX=true for a trial on the built-in sandbox exchange, with simulated prices)',
          ],
        }),
      ]);
      expect(lines.some((line) => line.context === 'Sandbox')).toBe(false);
    },
  );

  it.each(['PORT', 'SANDBOX_PORT'])(
    'a %s in use is one fatal line naming it, and status 1',
    async (setting) => {
      const port = await freePort();
      const server = await occupy(port);
      try {
        const run = await start({
          [setting]: String(port),
          ...(setting === 'PORT' ? { SANDBOX: 'true' } : { ROLE: 'sandbox' }),
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
        SANDBOX: 'true',
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
