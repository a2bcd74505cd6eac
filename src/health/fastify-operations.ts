import { LogController, type FastifyServerOptions } from 'fastify';
import type { Logger } from 'pino';
import { requestIdOf } from '../logging/request-id';

/**
 * Fastify options for logs, request ids and shutdown: the process's pino logger (each request's
 * `request.log` carries its `requestId`) without a line per request, which would cost more than
 * serving a cached body (errors are logged, every request is counted in the HTTP metrics); the id
 * from a sane `X-Request-Id` or a new one; and while closing, a request that still arrives on an open
 * connection is answered (with `Connection: close`) instead of refused with a 503 its client could
 * not have foreseen.
 */
export function operationsOptions(logger: Logger | undefined): Pick<
  FastifyServerOptions,
  'logController' | 'requestIdHeader' | 'genReqId' | 'return503OnClosing'
> & {
  loggerInstance?: Logger;
} {
  return {
    ...(logger ? { loggerInstance: logger } : {}),
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'requestId' }),
    requestIdHeader: false,
    genReqId: requestIdOf,
    return503OnClosing: false,
  };
}
