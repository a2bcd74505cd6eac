import { HttpException, HttpStatus } from '@nestjs/common';
import { STATUS_CODES } from 'node:http';
import { ErrorBody } from '../http/error-body';

/** The error code the sandbox sends with a status: its reason phrase in snake case ("not_found"). */
export function errorCodeFor(status: number): string {
  if (status === HttpStatus.SERVICE_UNAVAILABLE) return ''; // what the exchange sends when overloaded
  if (status >= 500) return 'unexpected';
  return (STATUS_CODES[status] ?? 'error').toLowerCase().replace(/[^a-z0-9]+/g, '_');
}

/** An HTTP error answered with the exchange's error body (spec 7.1), one entry per problem. */
export class ExchangeError extends HttpException {
  constructor(status: HttpStatus, messages: string | readonly string[]) {
    const code = errorCodeFor(status);
    const list = typeof messages === 'string' ? [messages] : messages;
    const body: ErrorBody = { errors: list.map((message) => ({ code, message })) };
    super(body, status);
  }

  static badRequest(messages: string | readonly string[]): ExchangeError {
    return new ExchangeError(HttpStatus.BAD_REQUEST, messages);
  }

  static notFound(message: string): ExchangeError {
    return new ExchangeError(HttpStatus.NOT_FOUND, message);
  }
}
