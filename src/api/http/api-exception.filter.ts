import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { errorResponse, sendError } from './error-response';

/** Every error leaves as the JSON error body with its status; unexpected ones as a 500 without details. */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    sendError(host.switchToHttp().getResponse<FastifyReply>(), errorResponse(exception));
  }
}
