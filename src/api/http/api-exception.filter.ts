import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { errorResponse } from './error-response';

/** Every error leaves as the JSON error body with its status; unexpected ones as a 500 without details. */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const { status, body, headers } = errorResponse(exception);
    if (headers) reply.headers(headers);
    reply.status(status).header('cache-control', 'no-store').send(body);
  }
}
