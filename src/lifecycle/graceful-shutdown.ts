import type { Logger } from 'pino';

/** One part of the process to stop, in order; each step runs once the one before has finished. */
export interface ShutdownStep {
  readonly name: string;
  run(): Promise<void> | void;
}

export interface GracefulShutdownOptions {
  readonly steps: readonly ShutdownStep[];
  /** The whole shutdown may take this long; after it the process exits with status 1. */
  readonly timeoutMs: number;
  readonly logger: Logger;
  readonly signals?: readonly NodeJS.Signals[];
  /** How the process ends; `process.exit` by default. */
  readonly exit?: (code: number) => void;
}

/**
 * On the first SIGTERM or SIGINT, runs the steps in order and exits with status 0, or with 1 when a
 * step fails or the whole exceeds the timeout. Further signals while it runs are logged and ignored,
 * so that an impatient second signal cannot cut a lease release or a last write short.
 */
export function installGracefulShutdown(options: GracefulShutdownOptions): void {
  const { logger, steps, timeoutMs } = options;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let started = false;
  const shutDown = async (signal: NodeJS.Signals): Promise<void> => {
    if (started) {
      logger.warn({ signal }, 'shutdown already under way; signal ignored');
      return;
    }
    started = true;
    logger.info({ signal, timeoutMs }, 'shutting down');
    let running = '';
    // The step still running is named: a hang is found where it is, not guessed from the log before it.
    const deadline = setTimeout(() => {
      logger.error(
        { timeoutMs, step: running },
        `shutdown did not finish in time (at "${running}"); exiting`,
      );
      exit(1);
    }, timeoutMs);
    let code = 0;
    for (const step of steps) {
      running = step.name;
      const begun = performance.now();
      try {
        await step.run();
        logger.debug({ step: step.name, ms: Math.round(performance.now() - begun) }, 'shutdown step done');
      } catch (error) {
        code = 1;
        logger.error({ step: step.name, err: error }, 'shutdown step failed');
      }
    }
    clearTimeout(deadline);
    logger.info({ code }, 'shut down');
    exit(code);
  };
  for (const signal of options.signals ?? ['SIGTERM', 'SIGINT']) {
    process.on(signal, (received: NodeJS.Signals) => void shutDown(received));
  }
}
