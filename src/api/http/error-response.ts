import { HttpException, Logger } from '@nestjs/common';
import { ApiError, ErrorBody, errorBody } from './api-error';
import type { ApiReply } from './api-http';

const CODES: Record<number, string> = {
  400: 'bad_request',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'not_acceptable',
  408: 'request_timeout',
  413: 'payload_too_large',
  414: 'uri_too_long',
  415: 'unsupported_media_type',
  426: 'upgrade_required',
  429: 'too_many_requests',
  431: 'request_header_fields_too_large',
  503: 'unavailable',
};

export interface ErrorResponse {
  readonly status: number;
  readonly body: ErrorBody;
  /** Headers the error needs (`Allow` with a 405), beside those of every response. */
  readonly headers?: Readonly<Record<string, string>>;
}

const logger = new Logger('ApiExceptionFilter');

/**
 * The status and JSON error body for anything thrown while answering a request, whichever way it
 * was served: an ApiError as it says, a framework's client error (Nest's, or Fastify's own such as a
 * body over the limit) with its status, anything else as a 500 without details, logged.
 */
export function errorResponse(exception: unknown): ErrorResponse {
  if (exception instanceof ApiError)
    return {
      status: exception.status,
      body: errorBody(exception.code, exception.message),
      headers: exception.headers,
    };
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const message = status === 404 ? 'no such endpoint' : exception.message;
    return { status, body: errorBody(codeOf(status), message) };
  }
  const status = clientErrorStatus(exception);
  if (status !== undefined) return { status, body: errorBody(codeOf(status), (exception as Error).message) };
  logger.error(`unexpected error: ${(exception as Error)?.stack ?? String(exception)}`);
  return { status: 500, body: errorBody('internal_error', 'internal error') };
}

/** Sends an error response: the exception filter and the fast path both answer errors here. */
export function sendError(reply: ApiReply, { status, body, headers }: ErrorResponse): void {
  if (headers) reply.headers(headers);
  reply.status(status);
  reply.header('cache-control', 'no-store');
  reply.send(body);
}

export function codeOf(status: number): string {
  return CODES[status] ?? 'error';
}

/** Fastify's errors carry `statusCode`; only a 4xx one is the client's doing. */
function clientErrorStatus(exception: unknown): number | undefined {
  if (!(exception instanceof Error)) return undefined;
  const status = (exception as { statusCode?: unknown }).statusCode;
  return typeof status === 'number' && status >= 400 && status < 500 ? status : undefined;
}
