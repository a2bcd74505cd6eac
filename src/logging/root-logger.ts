import pino, { DestinationStream, Logger } from 'pino';
import { LogLevel } from '../config/app-config';
import { REDACTED, scrubSecrets } from './secret-values';

/**
 * Structured fields that hold credentials, wherever they appear in a logged object (two levels
 * deep, which covers `req.headers.authorization` and an error's `config.password`).
 */
const REDACTED_PATHS = [
  'password',
  'token',
  'sessionToken',
  'session_token',
  'accessToken',
  'access_token',
  'authorization',
  'UPSTREAM_PASSWORD',
  'REDIS_URL',
  'REDIS_SENTINEL_PASSWORD',
  '*.password',
  '*.token',
  '*.sessionToken',
  '*.session_token',
  '*.accessToken',
  '*.access_token',
  '*.authorization',
  '*.Authorization',
  '*.UPSTREAM_PASSWORD',
  '*.REDIS_URL',
  '*.REDIS_SENTINEL_PASSWORD',
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers.cookie',
];

/** Writes each finished line to `target` with every secret value scrubbed from it. */
export function scrubbingDestination(target: DestinationStream): DestinationStream {
  return { write: (line: string) => target.write(scrubSecrets(line)) };
}

/**
 * The process's one pino logger: JSON lines on stdout at `level`, written synchronously so that
 * nothing is lost when the process exits, with credentials redacted by field name and by value.
 */
export function createRootLogger(
  level: LogLevel,
  target: DestinationStream = pino.destination({ dest: 1, sync: true }),
): Logger {
  return pino(
    {
      level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACTED_PATHS, censor: REDACTED },
    },
    scrubbingDestination(target),
  );
}
