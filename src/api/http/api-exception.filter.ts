import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiError, errorBody } from './api-error';

const CODES: Record<number, string> = {
  400: 'bad_request',
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'not_acceptable',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'too_many_requests',
  503: 'unavailable',
};

/** Every error leaves as the JSON error body with its status; unexpected ones as a 500 without details. */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger(ApiExceptionFilter.name);

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    let status: number;
    let body;
    if (exception instanceof ApiError) {
      status = exception.status;
      body = errorBody(exception.code, exception.message);
    } else if (exception instanceof HttpException) {
      status = exception.getStatus();
      const message = status === 404 ? 'no such endpoint' : exception.message;
      body = errorBody(CODES[status] ?? 'error', message);
    } else {
      status = 500;
      body = errorBody('internal_error', 'internal error');
      this.logger.error(`unexpected error: ${(exception as Error)?.stack ?? String(exception)}`);
    }
    reply.status(status).header('Cache-Control', 'no-store').send(body);
  }
}
