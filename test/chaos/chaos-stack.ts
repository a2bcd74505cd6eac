import { RunningSandbox, SandboxTuning } from 'sandbox-exchange';
import { Tuning } from '../../src/config/tuning';
import { GatewayProcess, startGatewayProcess } from '../scale/support/gateway-process';
import { TestRedisServer } from '../support/redis-server';
import { startTestSandbox } from '../support/start-test-sandbox';
import {
  ChaosRedis,
  redisEnv,
  redisTuning,
  RedisTopology,
  startChaosRedis,
  stopChaosRedis,
} from './chaos-redis';

/** `single`: one process ingests and serves; `multi`: three ingest and two API processes on one Redis. */
export type ChaosMode = 'single' | 'multi';

const SANDBOX_KEEPALIVE_MS = 300;

/**
 * Upstream timeouts of about a second, so that a silent or dead connection is replaced within the
 * run, and few trades per subscription, so that every reconnect pages the rest from the history.
 */
const INGEST_TUNING: Partial<Tuning> = {
  leaseTtlMs: 3_000,
  upstreamKeepAliveMs: SANDBOX_KEEPALIVE_MS / 2,
  upstreamServerTimeoutMs: 1_000,
  upstreamPongTimeoutMs: 800,
  bookVerifyIntervalMs: 2_000,
  catalogRefreshMs: 10_000,
  tradesSnapshotCount: 5,
};

/** A gateway process that can be killed and started again under the same name. */
export class ReplicaSlot {
  private process: GatewayProcess | undefined;
  /** What earlier processes of the slot printed before they were killed. */
  private earlierOutput = '';

  constructor(
    readonly name: string,
    readonly role: 'all' | 'ingest' | 'api',
    private readonly env: Record<string, string>,
    private readonly tuning: Partial<Tuning>,
  ) {}

  /** Its URL while it runs. */
  get url(): string | undefined {
    return this.process && !this.process.exited ? this.process.url : undefined;
  }

  get serves(): boolean {
    return this.role !== 'ingest';
  }

  async start(): Promise<void> {
    this.process = await startGatewayProcess({
      role: this.role,
      name: this.name,
      env: this.env,
      tuning: this.tuning,
    });
  }

  /** SIGKILL, as a crash or an OOM kill would; resolves once the process is gone. */
  async kill(): Promise<void> {
    const victim = this.process;
    this.process = undefined;
    if (!victim) return;
    victim.signal('SIGKILL');
    await victim.stop(5_000);
    this.earlierOutput = (this.earlierOutput + victim.output()).slice(-100_000);
  }

  async stop(): Promise<void> {
    await this.process?.stop();
  }

  pid(): number | undefined {
    return this.process?.pid;
  }

  /** The error lines every process of the slot printed, the last `count`. */
  errors(count: number): string[] {
    const lines = (this.earlierOutput + (this.process?.output() ?? '')).split('\n');
    return lines.filter((line) => /\bERROR\b/.test(line)).slice(-count);
  }
}

/**
 * The sandbox exchange (in this process), a private Redis (one server, or replicated behind
 * Sentinels) and the gateway's processes of the real build.
 */
export class ChaosStack {
  private constructor(
    readonly mode: ChaosMode,
    readonly sandbox: RunningSandbox,
    readonly redisNodes: ChaosRedis,
    /** The processes that ingest (in single mode the one process). */
    readonly ingest: readonly ReplicaSlot[],
    /** Every process that serves the API. */
    readonly api: readonly ReplicaSlot[],
  ) {}

  /** The one Redis server of the standalone topology. */
  get redis(): TestRedisServer {
    if (this.redisNodes.topology !== 'standalone') throw new Error('the stack runs on a Sentinel set');
    return this.redisNodes.server;
  }

  /** `overrides` replace settings and tuning of the sandbox (`SANDBOX_*`) and of the ingest processes. */
  static async start(
    mode: ChaosMode,
    flowRate: number,
    overrides: {
      readonly sandbox?: Record<string, string>;
      readonly ingest?: Record<string, string>;
      readonly sandboxTuning?: Partial<SandboxTuning>;
      readonly ingestTuning?: Partial<Tuning>;
    } = {},
    topology: RedisTopology = 'standalone',
  ): Promise<ChaosStack> {
    const sandbox = await startTestSandbox(
      { SANDBOX_FLOW_RATE: String(flowRate), ...overrides.sandbox },
      { hubKeepAliveMs: SANDBOX_KEEPALIVE_MS, ...overrides.sandboxTuning },
    );
    let redisNodes: ChaosRedis;
    try {
      redisNodes = await startChaosRedis(topology);
    } catch (error) {
      await sandbox.close();
      throw error;
    }
    const common = { ...redisEnv(redisNodes), RATE_LIMIT_PER_MINUTE: '0' };
    const ingestTuning = { ...INGEST_TUNING, ...redisTuning(redisNodes), ...overrides.ingestTuning };
    const ingestEnv = {
      ...common,
      UPSTREAM_BASE_URL: sandbox.baseUrl,
      UPSTREAM_EMAIL: 'demo@example.com',
      UPSTREAM_PASSWORD: 'demo',
      ...overrides.ingest,
    };
    const ingest =
      mode === 'single'
        ? [new ReplicaSlot('gateway-1', 'all', ingestEnv, ingestTuning)]
        : [1, 2, 3].map((n) => new ReplicaSlot(`ingest-${n}`, 'ingest', ingestEnv, ingestTuning));
    const api =
      mode === 'single'
        ? ingest
        : [1, 2].map((n) => new ReplicaSlot(`api-${n}`, 'api', common, redisTuning(redisNodes)));
    const stack = new ChaosStack(mode, sandbox, redisNodes, ingest, api);
    try {
      await Promise.all([...new Set([...ingest, ...api])].map((slot) => slot.start()));
    } catch (error) {
      await stack.close();
      throw error;
    }
    return stack;
  }

  /** The URLs of the API processes that run at the moment. */
  apiUrls(): string[] {
    return this.api.map((slot) => slot.url).filter((url): url is string => url !== undefined);
  }

  /** The last error lines each gateway process printed, by process name. */
  errors(count = 20): Record<string, string[]> {
    const slots = [...new Set([...this.ingest, ...this.api])];
    return Object.fromEntries(slots.map((slot) => [slot.name, slot.errors(count)]));
  }

  /** Process ids of everything the run started, to sample or to report. */
  pids(): Record<string, number | undefined> {
    const slots = [...new Set([...this.ingest, ...this.api])];
    return Object.fromEntries(slots.map((slot) => [slot.name, slot.pid()]));
  }

  async close(): Promise<void> {
    await Promise.all([...new Set([...this.ingest, ...this.api])].map((slot) => slot.stop()));
    await this.sandbox.close();
    await stopChaosRedis(this.redisNodes);
  }
}
