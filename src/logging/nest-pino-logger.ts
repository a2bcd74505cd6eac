import type { LoggerService } from '@nestjs/common';
import type { Logger } from 'pino';

type PinoLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/** Nest's own start-up lines (each module initialised, each route mapped): the same at every start. */
const NEST_START_UP_CONTEXTS: ReadonlySet<string> = new Set([
  'NestFactory',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestApplication',
]);

/**
 * Nest's logger routed to pino: `Logger` instances throughout the code (and Nest's own messages)
 * become JSON lines with a `context` field. Nest passes the context as the last argument of each
 * call, and `error` a stack trace before it; an `Error` logged as the message keeps its stack.
 * The level is pino's (LOG_LEVEL); Nest's own level list is ignored, and its start-up lines are at
 * debug.
 */
export class NestPinoLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...params: unknown[]): void {
    const context = params[params.length - 1];
    const startUp = typeof context === 'string' && NEST_START_UP_CONTEXTS.has(context);
    this.write(startUp ? 'debug' : 'info', message, params);
  }

  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params, true);
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }

  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }

  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params, true);
  }

  setLogLevels(): void {
    // LOG_LEVEL sets pino's level once for the whole process.
  }

  private write(level: PinoLevel, message: unknown, params: unknown[], mayHaveStack = false): void {
    if (!this.logger.isLevelEnabled(level)) return;
    const rest = [...params];
    const fields: Record<string, unknown> = {};
    if (rest.length > 0 && typeof rest[rest.length - 1] === 'string') {
      const last = rest[rest.length - 1] as string;
      // `error(message, stack)` without a context: a lone string argument that is a stack trace.
      if (!(mayHaveStack && rest.length === 1 && isStack(last))) {
        fields.context = last;
        rest.pop();
      }
    }
    if (mayHaveStack && rest.length > 0) {
      const stack = rest.shift();
      if (typeof stack === 'string' && stack !== '') fields.stack = stack;
    }
    if (rest.length > 0) fields.details = rest;
    if (message instanceof Error) {
      this.logger[level]({ ...fields, err: message }, message.message);
    } else if (typeof message === 'object' && message !== null) {
      this.logger[level]({ ...fields, ...(message as Record<string, unknown>) });
    } else {
      this.logger[level](fields, String(message));
    }
  }
}

function isStack(text: string): boolean {
  return /\n\s+at /.test(text);
}
