import type { Logger } from 'pino';
import { format } from 'node:util';

/**
 * Sends what dependencies print with `console` (BullMQ warns about Redis' eviction policy that way)
 * and node's process warnings to the log as JSON lines, so that every line the process writes is
 * one. `logger` is read at each call: the process replaces its logger once the configuration is read.
 */
export function routeConsoleToLog(logger: () => Logger): void {
  const at =
    (level: 'debug' | 'info' | 'warn' | 'error') =>
    (...args: unknown[]): void =>
      logger()[level]({ context: 'console' }, format(...args));
  Object.assign(console, {
    debug: at('debug'),
    log: at('info'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    trace: at('debug'),
  });
  // Node's own listener prints warnings as plain text on stderr.
  process.removeAllListeners('warning');
  process.on('warning', (warning: Error & { code?: string }) =>
    logger().warn({ context: 'process', warning: warning.name, code: warning.code }, warning.message),
  );
}
