import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { rawErrorResponse } from './raw-error-response';

/** The API takes GETs only: no request needs a body. */
export const BODY_LIMIT_BYTES = 1024;
/**
 * How much more of a refused body is read, and dropped, before the connection is cut: enough for a
 * client that writes its whole body before it reads to get the 413 rather than a reset.
 */
export const DROPPED_AFTER_REFUSAL_BYTES = 1024 * 1024;

type Listener = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * Has `server` hand each request to `listener` once its body, if it has one, is known to be within
 * the limit, whatever the method and path. No route takes a body: the server reads each as it
 * arrives and drops it, holding none. A `Content-Length` over the limit is refused at once, before
 * any of the body is read (instead of a `100 Continue` when the client waits for one), a chunked
 * body as soon as it passes the limit.
 */
export function serveWithinBodyLimit(server: Server, listener: Listener): void {
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (!hasBody(request)) return listener(request, response);
    if (declaresTooLong(request)) return refuse(request, response);
    let received = 0;
    const serve = (): void => listener(request, response);
    const count = (chunk: Buffer): void => {
      received += chunk.length;
      if (received <= BODY_LIMIT_BYTES) return;
      request.off('data', count).off('end', serve);
      refuse(request, response);
    };
    request.on('data', count).once('end', serve);
  });
  server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => {
    if (!declaresTooLong(request)) response.writeContinue();
    server.emit('request', request, response);
  });
}

/** Fastify parses no body: the server has read and dropped it before Fastify gets the request. */
export function parseNoBodies(fastify: FastifyInstance): void {
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', (_request, _body, done) => done(null));
}

function hasBody(request: IncomingMessage): boolean {
  const length = request.headers['content-length'];
  return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
}

function declaresTooLong(request: IncomingMessage): boolean {
  return Number(request.headers['content-length']) > BODY_LIMIT_BYTES;
}

/**
 * The 413, then the connection closed once the rest of the body is read and dropped (up to a bound):
 * a socket closed with data unread resets the connection, and the client may lose the answer with it.
 */
function refuse(request: IncomingMessage, response: ServerResponse): void {
  // Pipelined behind an answer still under way, the 413 waits for its turn on the socket.
  if (!response.socket) {
    response.once('socket', () => refuse(request, response));
    return;
  }
  const socket = response.socket;
  let unsettled = 2;
  const letGo = (): void => {
    if (--unsettled === 0) socket.destroy();
  };
  const message = `request body exceeds ${BODY_LIMIT_BYTES} bytes: the API takes none`;
  socket.end(rawErrorResponse(413, message, request.method !== 'HEAD'), letGo);
  let dropped = 0;
  request.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > DROPPED_AFTER_REFUSAL_BYTES) socket.destroy();
  });
  request.once('end', letGo);
}
