import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyServerOptions } from 'fastify';
import { serveWithinBodyLimit } from './body-limit';
import { ProxyTrust } from './client-address';
import { FastPath } from './fast-path';
import { overflowedInRequestLine, ParseErrorPlace } from './head-overflow';
import { rawErrorResponse } from './raw-error-response';

/**
 * Aggregators send short URLs and a few short headers; node's default is 16 KiB. Node counts the URL
 * in it: a URL this long is answered 414.
 */
export const MAX_HEADER_BYTES = 8 * 1024;
/** Fastify's default: longer than the idle timeout of the load balancers in front. */
const KEEP_ALIVE_TIMEOUT_MS = 72_000;

type Listener = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * The HTTP server the API listens with: node's server with limits against slow and oversized
 * requests (a body over the limit is refused before the request is answered), the fast path ahead
 * of Fastify for the hot cached GETs, and client errors (an oversized URL or header, a request that
 * took too long) answered with the JSON error body.
 */
export class ApiServer {
  /** Set once the route handlers exist; until then Fastify answers everything. */
  fastPath: FastPath | undefined;
  /** Fastify's request listener, once Fastify has made its server. */
  private fastify?: Listener;

  constructor(
    /** The whole request, headers included, must arrive within this. */
    private readonly requestTimeoutMs: number,
    private readonly trust: ProxyTrust | undefined,
  ) {}

  /** Options of the Fastify instance that serves through this server. */
  fastifyOptions(): Pick<FastifyServerOptions, 'serverFactory' | 'clientErrorHandler' | 'trustProxy'> {
    return {
      serverFactory: (fastify: Listener) => this.createServer(fastify),
      clientErrorHandler: answerClientError,
      ...(this.trust ? { trustProxy: this.trust } : {}),
    };
  }

  /**
   * A server of its own for the operator console (`CONSOLE_PORT`), with the same limits: Fastify
   * answers everything it is asked, without the fast path, so that the console's access rules apply.
   */
  createConsoleServer(): Server {
    const server = this.withLimits((request, response) => {
      if (!this.fastify) throw new Error('the console server needs Fastify set up first');
      this.fastify(request, response);
    });
    server.on('clientError', answerClientError);
    return server;
  }

  private createServer(fastify: Listener): Server {
    this.fastify = fastify;
    return this.withLimits((request, response) => {
      if (!this.fastPath?.handle(request, response)) fastify(request, response);
    });
  }

  private withLimits(listener: Listener): Server {
    const server = createServer({
      maxHeaderSize: MAX_HEADER_BYTES,
      requestTimeout: this.requestTimeoutMs,
      headersTimeout: this.requestTimeoutMs,
      // How often node looks for requests past their time; its default, 30 s, would let a slow
      // client hold a connection far longer than the timeout says.
      connectionsCheckingInterval: Math.min(1_000, this.requestTimeoutMs),
    });
    serveWithinBodyLimit(server, listener);
    server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
    return server;
  }
}

/** A request node could not take (too slow, head too large, malformed): the JSON error, then close. */
function answerClientError(error: Error & ParseErrorPlace & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const [status, message] = clientErrorAnswer(error);
  // Let go once written: a client keeping its side open would hold the socket, and the drain.
  socket.end(rawErrorResponse(status, message), () => socket.destroy());
}

function clientErrorAnswer(error: Error & ParseErrorPlace & { code?: string }): [number, string] {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, 'the request did not arrive in time'];
    case 'HPE_HEADER_OVERFLOW':
      return overflowedInRequestLine(error)
        ? [414, `request URL (path and query string) exceeds ${MAX_HEADER_BYTES} bytes`]
        : [431, `request headers exceed ${MAX_HEADER_BYTES} bytes`];
    default:
      return [400, 'malformed request'];
  }
}
