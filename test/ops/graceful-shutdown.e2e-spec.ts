import { Agent, request } from 'node:http';
import { connect, Socket } from 'node:net';
import Redis from 'ioredis';
import { RunningSandbox } from 'sandbox-exchange';
import { decodeLease } from '../../src/store/lease-value';
import { startRedisServer, TestRedisServer } from '../support/redis-server';
import { startTestSandbox } from '../support/start-test-sandbox';
import { expectCleanExit, GatewayRun, runGateway, waitForStatus } from './support/gateway-run';

jest.setTimeout(60_000);

const INSTANCE = 'ops-shutdown-1';
/** Long enough that a loaded machine still sees the process unready, and serving, before it stops accepting. */
const SHUTDOWN_DELAY_MS = 3_000;
const PATHS = [
  '/summary',
  '/ticker',
  '/ticker?probe=1',
  '/asset',
  '/orderbook/BTC_USDT?depth=20',
  '/health/live',
];

type Outcome =
  { kind: 'completed'; status: number } | { kind: 'refused' } | { kind: 'failed'; reason: string };

/**
 * One GET. `completed`: a whole response arrived. `refused`: the request never reached the server
 * (connection refused, or a kept-alive connection the server had closed as idle just as it was
 * reused, which node reports as a reset of a reused socket). Anything else is a failure.
 */
function get(url: string, agent: Agent | false): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = request(url, { agent, timeout: 10_000 }, (response) => {
      response.resume();
      response.on('end', () => resolve({ kind: 'completed', status: response.statusCode ?? 0 }));
      response.on('aborted', () => resolve({ kind: 'failed', reason: 'response aborted' }));
      response.on('error', (error) => resolve({ kind: 'failed', reason: `response ${error.message}` }));
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED') resolve({ kind: 'refused' });
      else if (error.code === 'ECONNRESET' && req.reusedSocket) resolve({ kind: 'refused' });
      else resolve({ kind: 'failed', reason: `${error.code ?? ''} ${error.message}` });
    });
    req.end();
  });
}

/**
 * Load as a load balancer sends it: new connections until it saw the instance report not ready,
 * then requests on the connections it already has (`keepAlive`) until the instance closes them.
 * Every outcome is recorded.
 */
class Load {
  readonly outcomes: Outcome[] = [];
  private balancing = true;

  /** The balancer saw `/health/ready` fail: no new connections from now on. */
  stopBalancing(): void {
    this.balancing = false;
  }

  async freshConnections(base: string, offset: number): Promise<void> {
    for (let i = offset; this.balancing; i++) {
      this.outcomes.push(await get(`${base}${PATHS[i % PATHS.length]}`, false));
    }
  }

  async keptAlive(base: string, offset: number): Promise<void> {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (let i = offset; ; i++) {
        const open = Object.values(agent.freeSockets).some((sockets) => (sockets?.length ?? 0) > 0);
        if (!this.balancing && !open) return;
        const outcome = await get(`${base}${PATHS[i % PATHS.length]}`, agent);
        this.outcomes.push(outcome);
        if (outcome.kind === 'refused') return;
      }
    } finally {
      agent.destroy();
    }
  }
}

/** A request whose headers have begun to arrive: accepted by the server, not yet complete. */
async function beginRequest(port: number): Promise<{ socket: Socket; finish(): Promise<string> }> {
  const socket = connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write('GET /summary HTTP/1.1\r\nHost: 127.0.0.1\r\n');
  let received = '';
  socket.on('data', (chunk) => (received += chunk.toString()));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return {
    socket,
    finish: async () => {
      socket.write('Accept: application/json\r\n\r\n');
      await closed;
      return received;
    },
  };
}

async function leasesOf(redis: Redis, owner: string): Promise<string[]> {
  const keys = await redis.keys('mdg:*:lease');
  const values = keys.length > 0 ? await redis.mget(keys) : [];
  return keys.filter((_key, index) => decodeLease(values[index] ?? '')?.owner === owner);
}

describe('graceful shutdown of the real build (SIGTERM under load)', () => {
  let redisServer: TestRedisServer;
  let redis: Redis;
  let sandbox: RunningSandbox;
  let gateway: GatewayRun | undefined;

  beforeAll(async () => {
    redisServer = await startRedisServer();
    redis = new Redis(redisServer.url);
    sandbox = await startTestSandbox();
  });

  afterAll(async () => {
    await gateway?.kill();
    redis?.disconnect();
    await sandbox?.close();
    await redisServer?.stop();
  });

  it('turns unready first, answers every accepted request, exits 0 and leaves no lease behind', async () => {
    gateway = await runGateway(
      {
        ROLE: 'all',
        INSTANCE_ID: INSTANCE,
        REDIS_URL: redisServer.url,
        UPSTREAM_BASE_URL: sandbox.baseUrl,
        UPSTREAM_AUTH_URL: sandbox.authUrl,
        UPSTREAM_WS_URL: sandbox.wsUrl,
        UPSTREAM_EMAIL: 'demo@example.com',
        UPSTREAM_PASSWORD: 'demo',
        SHUTDOWN_DELAY_MS: String(SHUTDOWN_DELAY_MS),
        RATE_LIMIT_PER_MINUTE: '0',
        LOG_LEVEL: 'info',
      },
      // Long enough that a lease not released would still be there after the process is gone.
      { leaseTtlMs: 60_000 },
    );
    await waitForStatus(gateway, '/health/ready', 200, 40_000);
    const owned = await leasesOf(redis, INSTANCE);
    expect(owned.length).toBeGreaterThan(0);
    expect(await redis.zscore('mdg:ingest-members', INSTANCE)).not.toBeNull();

    const load = new Load();
    const { outcomes } = load;
    const loops = [
      ...[0, 1, 2].map((offset) => load.freshConnections(gateway!.url, offset)),
      ...[3, 4, 5].map((offset) => load.keptAlive(gateway!.url, offset)),
    ];
    await new Promise((resolve) => setTimeout(resolve, 500));
    const port = Number(new URL(gateway.url).port);
    const pending = await beginRequest(port);
    const before = outcomes.length;

    gateway.signal('SIGTERM');
    // Within the delay: not ready, while everything else is still served.
    await waitForStatus(gateway, '/health/ready', 503, SHUTDOWN_DELAY_MS - 500);
    load.stopBalancing();
    expect((await get(`${gateway.url}/summary`, false)).kind).toBe('completed');
    // Until the server stops accepting: the request begun before the signal is still open.
    const deadline = Date.now() + 10_000;
    while ((await get(`${gateway.url}/health/live`, false)).kind !== 'refused' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const answer = await pending.finish();

    await expectCleanExit(gateway);
    await Promise.all(loops);

    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(answer.toLowerCase()).toContain('connection: close');
    const failures = outcomes.filter((outcome) => outcome.kind === 'failed');
    expect(failures).toEqual([]);
    const answered = outcomes.filter((outcome) => outcome.kind === 'completed');
    expect(answered.length).toBeGreaterThan(before);
    expect(answered.filter((outcome) => outcome.kind === 'completed' && outcome.status !== 200)).toEqual([]);
    expect(await leasesOf(redis, INSTANCE)).toEqual([]);
    expect(await redis.zscore('mdg:ingest-members', INSTANCE)).toBeNull();
    expect(gateway.stdout()).toContain('"msg":"shut down"');
  });
});
