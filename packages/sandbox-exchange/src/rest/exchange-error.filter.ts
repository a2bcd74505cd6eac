import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { errorBody } from '../http/error-body';
import { errorCodeFor } from './exchange-error';

interface NestDefaultBody {
  readonly statusCode: number;
  readonly message?: string | string[];
}

function isNestDefaultBody(response: unknown): response is NestDefaultBody {
  return typeof response === 'object' && response !== null && 'statusCode' in response;
}

/**
 * Makes every error of the sandbox's HTTP interface look like the exchange's (spec 7.1): unknown
 * paths, malformed bodies and any HttpException carrying Nest's default body get
 * `{ errors: [{ code, message }] }`; an exception that already carries its own body keeps it.
 * Anything else is a bug of the sandbox: logged, and answered 500 without details.
 */
@Catch()
export class ExchangeErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('SandboxHttp');

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    if (reply.sent) return;
    if (!(exception instanceof HttpException)) {
      this.logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : exception);
      void reply
        .status(HttpStatus.INTERNAL_SERVER_ERROR)
        .send(errorBody('unexpected', 'Internal server error'));
      return;
    }
    const status = exception.getStatus();
    const response = exception.getResponse();
    if (typeof response === 'object' && !isNestDefaultBody(response)) {
      void reply.status(status).send(response);
      return;
    }
    const message = typeof response === 'string' ? response : [response.message ?? exception.message].flat();
    void reply.status(status).send({
      errors: [message].flat().map((text) => ({ code: errorCodeFor(status), message: text })),
    });
  }
}
