import { Logger as NestLogger, type LogLevel as NestLogLevel } from '@nestjs/common';
import type { Logger } from 'pino';
import { describeSandbox, RunningSandbox, SandboxConfig, sandboxHost, startSandbox } from 'sandbox-exchange';
import { LogLevel } from './config/app-config';
import { Tuning } from './config/tuning';
import { ConfigValidationError } from './config/load-config';
import { ingests, Role } from './config/role';
import { announceWhenReady } from './health/ready-announcement';
import { Readiness } from './health/readiness';
import { installGracefulShutdown, ShutdownStep } from './lifecycle/graceful-shutdown';
import { ListenFailure, listenNamingSetting } from './lifecycle/listen-failure';
import { nodeVersionProblem } from './lifecycle/node-version';
import { routeConsoleToLog } from './logging/console-to-log';
import { NestPinoLogger } from './logging/nest-pino-logger';
import { createRootLogger } from './logging/root-logger';
import { registerSecret, registerUrlPassword } from './logging/secret-values';
import { startApp } from './start-app';
import { loadStartConfig, StartConfig } from './start-config';
import { StateStore } from './store/state-store';
import { STATE_STORE } from './store/store.module';
import { resolveUpstream } from './upstream/upstream-settings';

const SHUTDOWN_SIGNALS: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGINT'];

/** Kubernetes kills a pod 30 s after SIGTERM by default: a shutdown cut short at 25 s still exits with its log. */
const SHUTDOWN_TIMEOUT_MS = 25_000;

/** Until the configuration is read: errors of the start itself. */
let logger: Logger = createRootLogger('info');
routeConsoleToLog(() => logger);

function readConfig(): StartConfig {
  try {
    return loadStartConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigValidationError) {
      // The problems name the bad keys; a secret's value is never among them.
      logger.fatal({ problems: error.problems }, error.message);
      process.exit(1);
    }
    throw error;
  }
}

/** Nest's levels for LOG_LEVEL: each level with every more severe one. */
function nestLogLevels(level: LogLevel): NestLogLevel[] {
  const ordered: [LogLevel, NestLogLevel][] = [
    ['fatal', 'fatal'],
    ['error', 'error'],
    ['warn', 'warn'],
    ['info', 'log'],
    ['debug', 'debug'],
    ['trace', 'verbose'],
  ];
  const upTo = ordered.findIndex(([name]) => name === level);
  return ordered.slice(0, upTo + 1).map(([, nest]) => nest);
}

/**
 * Starts the in-process sandbox without the signal handlers Nest installs for it: they would close
 * the exchange at the first signal, before the gateway drained, and then kill the process.
 */
async function startSandboxQuietly(config: SandboxConfig, logLevel: LogLevel): Promise<RunningSandbox> {
  const before = new Map(SHUTDOWN_SIGNALS.map((signal) => [signal, new Set(process.listeners(signal))]));
  const sandbox = await startSandbox(config, nestLogLevels(logLevel));
  for (const signal of SHUTDOWN_SIGNALS) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal)!.has(listener)) process.removeListener(signal, listener);
    }
  }
  return sandbox;
}

async function main(tuning: Tuning): Promise<void> {
  const nodeProblem = nodeVersionProblem(process.version);
  if (nodeProblem) {
    logger.fatal({ node: process.version }, nodeProblem);
    process.exit(1);
  }
  const { gateway: config, sandbox: sandboxConfig } = readConfig();
  registerSecret(config.UPSTREAM_PASSWORD);
  registerUrlPassword(config.REDIS_URL);
  registerSecret(config.REDIS_SENTINEL_PASSWORD);
  logger = createRootLogger(config.LOG_LEVEL);
  const nestLogger = new NestPinoLogger(logger);
  NestLogger.overrideLogger(nestLogger);
  const steps: ShutdownStep[] = [];
  // Said once the signals are handled: whoever stops the process on these lines must not kill it.
  const announcements: (() => void)[] = [];
  let sandbox: RunningSandbox | undefined;
  if (sandboxConfig) {
    const host = sandboxHost(sandboxConfig);
    sandbox = await listenNamingSetting('SANDBOX_PORT', host, sandboxConfig.SANDBOX_PORT, () =>
      startSandboxQuietly(sandboxConfig, config.LOG_LEVEL),
    );
    const banner = describeSandbox(sandbox, sandboxConfig);
    const { baseUrl, port } = sandbox;
    announcements.push(() =>
      logger.info(
        { context: 'Sandbox', url: baseUrl, host, port, ...banner },
        `sandbox exchange with ${banner.markets} markets listening on ${host}:${port} (${baseUrl})`,
      ),
    );
  }
  if (config.ROLE !== Role.Sandbox) {
    const upstream = ingests(config.ROLE) ? resolveUpstream(config, sandbox) : undefined;
    const app = await listenNamingSetting('PORT', config.HOST, config.PORT, () =>
      startApp(config, upstream, nestLogger, logger.child({ context: 'http' }), tuning),
    );
    announcements.push(() => {
      logger.info({ role: config.ROLE, url: app.url }, `Gateway (${config.ROLE}) listening on ${app.url}`);
      if (app.consolePort !== undefined)
        logger.info(
          { port: app.consolePort },
          `operator console listening on port ${app.consolePort} (/console), not on ${config.PORT}`,
        );
    });
    const stopAnnouncing = announceWhenReady({
      readiness: app.app.get(Readiness),
      store: app.app.get<StateStore>(STATE_STORE),
      logger: logger.child({ context: 'Readiness' }),
      role: config.ROLE,
      url: app.url,
    });
    steps.push(
      { name: 'stop announcing readiness', run: stopAnnouncing },
      { name: 'stop being ready', run: () => app.stopBeingReady() },
      { name: 'let load balancers notice', run: () => sleep(config.SHUTDOWN_DELAY_MS) },
      { name: 'drain HTTP', run: () => app.closeHttp() },
      // Ingest: flush, release the leases, close the upstream connections; then the Redis connections.
      { name: 'close the application', run: () => app.close() },
    );
  }
  if (sandbox) steps.push({ name: 'close the sandbox', run: () => sandbox.close() });
  installGracefulShutdown({
    steps,
    timeoutMs: SHUTDOWN_TIMEOUT_MS,
    logger,
    signals: SHUTDOWN_SIGNALS,
  });
  for (const announce of announcements) announce();
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function die(error: unknown): void {
  if (error instanceof ListenFailure) {
    // The message says what to change; a stack trace would only hide it.
    logger.fatal({ code: error.code, setting: error.setting }, error.message);
    process.exit(1);
  }
  logger.fatal({ err: error }, `Fatal: ${(error as Error)?.message ?? String(error)}`);
  process.exit(1);
}

/**
 * The gateway process: reads the environment, starts what its role runs, and stops on SIGTERM/SIGINT.
 * `tuning` is the defaults (`main.ts`); a test's own entry point may pass other values.
 */
export function runGateway(tuning: Tuning = new Tuning()): void {
  process.on('uncaughtException', die);
  process.on('unhandledRejection', die);
  main(tuning).catch(die);
}
