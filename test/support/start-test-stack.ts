import { Socket } from 'node:net';
import { basename } from 'node:path';
import { loadConfig } from '../../src/config/load-config';
import { Tuning, tuning } from '../../src/config/tuning';
import { DATA_FILES } from '../../src/start-config';
import { RunningSandbox, SandboxTuning } from 'sandbox-exchange';
import { RunningApp, startApp } from '../../src/start-app';
import { RedisStateStore } from '../../src/store/redis-state-store';
import { StateStore } from '../../src/store/state-store';
import { STATE_STORE } from '../../src/store/store.module';
import { resolveUpstream } from '../../src/upstream/upstream-settings';
import { startRedisServer, TestRedisServer } from './redis-server';
import { resolvesWithin } from './resolves-within';
import { startTestSandbox } from './start-test-sandbox';

export interface TestStack {
  readonly sandbox: RunningSandbox;
  readonly redis?: TestRedisServer;
  readonly app: RunningApp;
  /** The store as the application sees it (Redis or memory). */
  readonly store: StateStore;
  close(): Promise<void>;
}

export interface TestStackOptions {
  /** Settings of the sandbox (`SANDBOX_*`). */
  readonly sandbox?: Record<string, string>;
  /** Tuning of the sandbox, on top of its built-in values. */
  readonly sandboxTuning?: Partial<SandboxTuning>;
  /** Settings of the gateway application. */
  readonly app?: Record<string, string>;
  /** Tuning of the gateway application, on top of the production defaults: short intervals, small limits. */
  readonly tuning?: Partial<Tuning>;
  /** Keep state in a private Redis (default) or in memory. */
  readonly redis?: boolean;
  /** Log in to the gateway as the sandbox's demo user (default true); false runs without a trade feed. */
  readonly credentials?: boolean;
  /**
   * Ingest the sandbox at its address (UPSTREAM_BASE_URL) as if it were an exchange, instead of as
   * the in-process sandbox (SANDBOX=true): nothing then says sandbox.
   */
  readonly asExchange?: boolean;
  /** Runs on the sandbox before the gateway starts, e.g. to give a market a past the gateway finds. */
  readonly prepareSandbox?: (sandbox: RunningSandbox) => void;
}

/**
 * The whole service on loopback: a sandbox exchange, a private redis-server, and the gateway
 * application ingesting from the sandbox (role `all`), all on free ports.
 */
export async function startTestStack(options: TestStackOptions = {}): Promise<TestStack> {
  const sandbox = await startTestSandbox(options.sandbox, options.sandboxTuning);
  options.prepareSandbox?.(sandbox);
  const redis = options.redis === false ? undefined : await startRedisServer();
  const config = loadConfig(
    {
      ...(options.asExchange
        ? {
            UPSTREAM_BASE_URL: sandbox.baseUrl,
            UPSTREAM_EMAIL: 'demo@example.com',
            UPSTREAM_PASSWORD: 'demo',
          }
        : { SANDBOX: 'true' }),
      HOST: '127.0.0.1',
      PORT: '0',
      ...(redis ? { REDIS_URL: redis.url } : {}),
      ...options.app,
    },
    DATA_FILES,
  );
  const upstream = resolveUpstream(config, options.asExchange ? undefined : sandbox);
  const app = await startApp(
    config,
    options.credentials === false ? { ...upstream, credentials: undefined } : upstream,
    ['error'],
    undefined,
    tuning(options.tuning),
  );
  const store = app.app.get<StateStore>(STATE_STORE);
  return {
    sandbox,
    redis,
    app,
    store,
    close: async () => {
      // Bounded, as a deployment's shutdown timeout bounds a shutdown, and within the suite's hook
      // timeout: a part that is late is named, with what is still open, instead of failing the suite
      // without a cause.
      await within('the application', app.close(), 15_000);
      await within('the sandbox', sandbox.close(), 8_000);
      if (redis) await within('redis-server', redis.stop(), 3_000);
    },
  };
}

async function within(part: string, closing: Promise<void>, limitMs: number): Promise<void> {
  if (!(await resolvesWithin(closing, limitMs)))
    process.stderr.write(
      `${part} did not close within ${limitMs} ms (${basename(expect.getState().testPath ?? '')}); ` +
        `open: ${process.getActiveResourcesInfo().join(', ')}; sockets: ${openSockets().join(', ')}\n`,
    );
}

/** Each open TCP socket as `local -> remote`, marked `(accepted)` when a server of this process took it. */
function openSockets(): string[] {
  const handles = (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles();
  return handles
    .filter((handle): handle is Socket => handle instanceof Socket)
    .map(
      (socket) =>
        `${socket.localPort ?? '?'} -> ${socket.remotePort ?? '?'}` +
        `${(socket as Socket & { server?: unknown }).server ? ' (accepted)' : ''}` +
        `${socket.destroyed ? ' destroyed' : ''}${socket.writableEnded ? ' ended' : ''}`,
    );
}

/** A second, independent reader of the stack's Redis, as an API replica would be. */
export async function openReader(stack: TestStack): Promise<RedisStateStore> {
  if (!stack.redis) throw new Error('the stack keeps its state in memory');
  const reader = RedisStateStore.fromUrl(stack.redis.url);
  await reader.ready();
  return reader;
}
