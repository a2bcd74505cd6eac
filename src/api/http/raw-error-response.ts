import { STATUS_CODES } from 'node:http';
import { errorBody } from './api-error';
import { codeOf } from './error-response';
import { SECURITY_HEADERS } from './security-headers';

/**
 * An error answer as the bytes to write on a socket that node's response object does not serve (a
 * request node could not parse, one refused before it is read): the JSON error body with the
 * security headers and `Connection: close`. `withBody` false leaves the body out, as a HEAD needs.
 */
export function rawErrorResponse(status: number, message: string, withBody = true): string {
  const body = JSON.stringify(errorBody(codeOf(status), message));
  const headers = {
    ...SECURITY_HEADERS,
    'cache-control': 'no-store',
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    connection: 'close',
  };
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head.join('')}\r\n${withBody ? body : ''}`;
}
