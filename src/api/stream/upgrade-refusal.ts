import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorBody } from '../http/api-error';
import { codeOf } from '../http/error-response';

/**
 * Answers a websocket upgrade that is not taken with an HTTP error and the API's JSON error body, then
 * lets the socket go: ended, it would stay open as long as the client kept its side, holding the drain.
 */
export function refuseUpgrade(socket: Duplex, status: number, message: string): void {
  const body = JSON.stringify(errorBody(codeOf(status), message));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      'Connection: close\r\nContent-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    () => socket.destroy(),
  );
}
