import { Tuning } from '../../src/config/tuning';
import Redis from 'ioredis';
import { startRedisServer, TestRedisServer } from '../support/redis-server';
import { freePort, gatewayEnv, MainProcess, progress, redisCpuSeconds, sleep } from './bench-process';
import { EmittedTop, topKey, VersionSeen } from './freshness-matching';

/**
 * The gateway as the burst benchmarks deploy it against a sandbox exchange process, and the sandbox's
 * burst and top-of-book log that they drive and time it with.
 */

/** The store's change messages (see `decodeInstrumentChange`), with the default key prefix. */
const CHANGES_CHANNEL = 'mdg:changes';

/** Below this many cores over two consecutive seconds, with no flow from the exchange, the ingest has finished starting. */
export const IDLE_CORES = 0.05;

/** The niceness of the exchange with `--gateway-first`: in production it runs on other machines. */
export const EXCHANGE_NICENESS = 10;

/** `split`: ingest and API replicas on a Redis, as deployed; `all`: one process, state in memory. */
export type Topology = 'split' | 'all';

export interface DeploySettings {
  readonly topology: Topology;
  /** Where each gateway process writes a CPU profile, if anywhere. */
  readonly profileDir?: string;
  /** Node and V8 flags for the ingesting process (the ingest replica, or the one process of `all`). */
  readonly ingestNodeOptions: readonly string[];
  /** The ingest's flush interval (`flushIntervalMs`); its default when not given. */
  readonly flushIntervalMs?: number;
  /** Settings of the process that serves the API, on top of the deployment's. */
  readonly apiEnv?: Record<string, string>;
  /** Tuning of the process that serves the API. */
  readonly apiTuning?: Partial<Tuning>;
}

export interface Deployment {
  /** The process that ingests. */
  readonly gateway: MainProcess;
  readonly ingestUrl: string;
  readonly api?: MainProcess;
  readonly apiUrl: string;
  /** Redis' CPU seconds so far (split only). */
  redisCpuSeconds?(): Promise<number>;
  /** Split only: records the book versions the store announces for `instruments` from now on. */
  recordStoredVersions?(instruments: readonly string[]): Promise<ReadonlyMap<string, VersionSeen[]>>;
  stop(): Promise<void>;
}

export async function deploy(settings: DeploySettings, sandboxUrl: string): Promise<Deployment> {
  const profile = settings.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${settings.profileDir}`] : [];
  const ingestNodeOptions = [...settings.ingestNodeOptions, ...profile];
  const ingestPort = await freePort();
  const ingestUrl = `http://127.0.0.1:${ingestPort}`;
  const flush: Partial<Tuning> =
    settings.flushIntervalMs === undefined ? {} : { flushIntervalMs: settings.flushIntervalMs };
  if (settings.topology === 'all') {
    const gateway = MainProcess.spawn('gateway', {
      env: { ROLE: 'all', ...gatewayEnv(sandboxUrl, ingestPort), ...settings.apiEnv },
      nodeOptions: ingestNodeOptions,
      tuning: { ...flush, ...settings.apiTuning },
    });
    await gateway.waitFor(`${ingestUrl}/health/ready`, 120_000).catch(async (error: unknown) => {
      await gateway.stop();
      throw error;
    });
    return { gateway, ingestUrl, apiUrl: ingestUrl, stop: () => gateway.stop() };
  }
  const redis: TestRedisServer = await startRedisServer({ args: [] });
  const admin = new Redis(redis.url);
  const apiPort = await freePort();
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const gateway = MainProcess.spawn('ingest', {
    env: { ROLE: 'ingest', REDIS_URL: redis.url, ...gatewayEnv(sandboxUrl, ingestPort) },
    nodeOptions: ingestNodeOptions,
    tuning: flush,
  });
  const api = MainProcess.spawn('api', {
    env: {
      ROLE: 'api',
      REDIS_URL: redis.url,
      HOST: '127.0.0.1',
      PORT: String(apiPort),
      RATE_LIMIT_PER_MINUTE: '0',
      ...settings.apiEnv,
    },
    nodeOptions: profile,
    tuning: settings.apiTuning,
  });
  const subscriber = new Redis(redis.url);
  const stop = async (): Promise<void> => {
    await api.stop();
    await gateway.stop();
    subscriber.disconnect();
    admin.disconnect();
    await redis.stop();
  };
  try {
    await gateway.waitFor(`${ingestUrl}/health/ready`, 120_000);
    await api.waitFor(`${apiUrl}/health/ready`, 60_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    gateway,
    ingestUrl,
    api,
    apiUrl,
    recordStoredVersions: async (instruments) => {
      const stored = new Map(instruments.map((instrument) => [instrument, [] as VersionSeen[]]));
      subscriber.on('message', (_channel: string, text: string) => {
        // The head alone (the message's third line): the levels and trades are not needed here.
        const head = JSON.parse(text.split('\n', 3)[2]) as { instrument: string; bookVersion: number };
        stored.get(head.instrument)?.push({ time: Date.now(), version: head.bookVersion });
      });
      await subscriber.subscribe(CHANGES_CHANNEL);
      return stored;
    },
    redisCpuSeconds: () => redisCpuSeconds(admin),
    stop,
  };
}

export async function emittedTops(sandboxUrl: string, instrument: string): Promise<EmittedTop[]> {
  const response = await fetch(`${sandboxUrl}/sandbox/top-log/${instrument}`);
  if (!response.ok) throw new Error(`top-log ${instrument}: ${response.status}`);
  const log = (await response.json()) as {
    changes: { time: number; version: number; bid: string[] | null; ask: string[] | null }[];
  };
  return log.changes.map((change) => ({
    time: change.time,
    key: topKey(change.bid, change.ask),
    version: change.version,
  }));
}

/** Listed markets that are open (not frozen), by the gateway's /ticker. */
export async function openInstruments(gatewayUrl: string): Promise<string[]> {
  const response = await fetch(`${gatewayUrl}/ticker`);
  const tickers = (await response.json()) as Record<string, { isFrozen: string }>;
  return Object.entries(tickers)
    .filter(([, ticker]) => ticker.isFrozen === '0')
    .map(([instrument]) => instrument);
}

/** Waits until `process` uses under `cores` over two consecutive seconds; gives up (and goes on) after `timeoutMs`. */
export async function untilQuiet(process: MainProcess, cores: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let quietSeconds = 0;
  while (quietSeconds < 2 && Date.now() < deadline) {
    const before = process.cpuSeconds();
    await sleep(1_000);
    quietSeconds = process.cpuSeconds() - before < cores ? quietSeconds + 1 : 0;
  }
  if (quietSeconds < 2)
    progress(`freshness: the gateway was still busy after ${timeoutMs / 1000} s; going on`);
}

export async function setBurst(sandboxUrl: string, updatesPerSecond: number): Promise<void> {
  await postJson(`${sandboxUrl}/sandbox/faults`, {
    name: 'burst',
    enabled: updatesPerSecond > 0,
    ...(updatesPerSecond > 0 ? { updatesPerSecond } : {}),
  });
}

export async function postJson(url: string, body: unknown): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`POST ${url}: ${response.status} ${await response.text()}`);
  return response.json();
}
