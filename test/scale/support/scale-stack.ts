import Redis from 'ioredis';
import { RunningSandbox, SandboxTuning } from 'sandbox-exchange';
import { Tuning } from '../../../src/config/tuning';
import { RedisStateStore } from '../../../src/store/redis-state-store';
import { waitFor } from '../../support/fault-run';
import { startRedisServer, TestRedisServer } from '../../support/redis-server';
import { startTestSandbox } from '../../support/start-test-sandbox';
import { ClusterView } from './cluster-view';
import { GatewayProcess, startGatewayProcess } from './gateway-process';

export interface ScaleStackOptions {
  readonly ingest: number;
  readonly api?: number;
  /** Settings of the sandbox (`SANDBOX_*`). */
  readonly sandbox?: Record<string, string>;
  /** Tuning of the sandbox, on top of its built-in values. */
  readonly sandboxTuning?: Partial<SandboxTuning>;
  /** Settings of every ingest replica, on top of the defaults below. */
  readonly ingestEnv?: Record<string, string>;
  /** Tuning of every ingest replica, on top of the short lease below. */
  readonly ingestTuning?: Partial<Tuning>;
  /** Log in to the gateway (default true); false runs without a trade feed. */
  readonly credentials?: boolean;
}

export const LEASE_TTL_MS = 3_000;

/**
 * Replicas of the gateway as they run in production, each its own process of the real build: ingest
 * replicas and API replicas on one private Redis, against a sandbox exchange in the test process.
 */
export class ScaleStack {
  readonly view: ClusterView;

  private constructor(
    readonly sandbox: RunningSandbox,
    readonly redis: TestRedisServer,
    readonly admin: Redis,
    /** A reader of the shared state, as an API replica reads it. */
    readonly reader: RedisStateStore,
    readonly ingest: GatewayProcess[],
    readonly api: GatewayProcess[],
    private readonly apiEnv: Record<string, string>,
    private readonly startIngest: (name: string) => Promise<GatewayProcess>,
  ) {
    this.view = new ClusterView(admin);
  }

  static async start(options: ScaleStackOptions): Promise<ScaleStack> {
    const sandbox = await startTestSandbox(options.sandbox, options.sandboxTuning);
    const redis = await startRedisServer();
    const processes: GatewayProcess[] = [];
    try {
      const common = { REDIS_URL: redis.url };
      const apiEnv = { ...common, RATE_LIMIT_PER_MINUTE: '0' };
      const ingestEnv = {
        ...common,
        UPSTREAM_BASE_URL: sandbox.baseUrl,
        ...(options.credentials === false
          ? {}
          : { UPSTREAM_EMAIL: 'demo@example.com', UPSTREAM_PASSWORD: 'demo' }),
        ...options.ingestEnv,
      };
      const startIngest = (name: string) =>
        startGatewayProcess({
          role: 'ingest',
          name,
          env: ingestEnv,
          tuning: { leaseTtlMs: LEASE_TTL_MS, ...options.ingestTuning },
        });
      const started = await Promise.all([
        ...Array.from({ length: options.ingest }, (_, index) => startIngest(`ingest-${index + 1}`)),
        ...Array.from({ length: options.api ?? 0 }, (_, index) =>
          startGatewayProcess({
            role: 'api',
            name: `api-${index + 1}`,
            env: apiEnv,
          }),
        ),
      ]);
      processes.push(...started);
      const admin = new Redis(redis.url);
      const reader = RedisStateStore.fromUrl(redis.url);
      await reader.ready();
      return new ScaleStack(
        sandbox,
        redis,
        admin,
        reader,
        started.filter((replica) => replica.role === 'ingest'),
        started.filter((replica) => replica.role === 'api'),
        apiEnv,
        startIngest,
      );
    } catch (error) {
      await Promise.all(processes.map((replica) => replica.stop(2_000)));
      await sandbox.close();
      await redis.stop();
      throw error;
    }
  }

  /** The listed (not hidden) instruments of the stored catalogue; none before the first refresh. */
  async listed(): Promise<string[]> {
    const catalog = await this.reader.readCatalog();
    return (catalog?.markets ?? []).filter((market) => !market.hidden).map((market) => market.instrument);
  }

  /** Waits for the stored catalogue and one live owner of each listed instrument; gives the listed. */
  async untilOwned(): Promise<string[]> {
    let listed: string[] = [];
    await waitFor(async () => (listed = await this.listed()).length > 0, 'catalogue stored', 30_000, 200);
    await waitFor(
      async () => (await this.view.exactlyOneLiveOwner(listed, this.ingest)).ok,
      'one live owner per instrument',
      30_000,
      200,
    );
    return listed;
  }

  /**
   * Stops an API replica gracefully (SIGTERM) and starts it again under its name, on a new port; resolves
   * once it is ready, when a load balancer would send it requests: before, it knows no market.
   */
  async restartApi(index: number): Promise<GatewayProcess> {
    const replica = this.api[index];
    await replica.stop();
    const restarted = await startGatewayProcess({ role: 'api', name: replica.name, env: this.apiEnv });
    try {
      await waitFor(
        async () => (await fetch(`${restarted.url}/health/ready`).catch(() => undefined))?.ok === true,
        `${replica.name} ready`,
        30_000,
        100,
      );
    } catch (error) {
      await restarted.stop(2_000);
      throw error;
    }
    this.api[index] = restarted;
    return restarted;
  }

  /** Starts an ingest replica again under its name, once it has stopped or been killed. */
  async restartIngest(replica: GatewayProcess): Promise<GatewayProcess> {
    const index = this.ingest.indexOf(replica);
    await replica.stop(2_000);
    const restarted = await this.startIngest(replica.name);
    this.ingest[index] = restarted;
    return restarted;
  }

  async close(): Promise<void> {
    await Promise.all([...this.ingest, ...this.api].map((replica) => replica.stop()));
    await this.reader.close();
    this.admin.disconnect();
    await this.sandbox.close();
    await this.redis.stop();
  }
}
