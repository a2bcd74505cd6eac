import type { Server } from 'node:http';
import { Server as NetServer, Socket } from 'node:net';

/** How often the drain looks for connections to close. */
const SWEEP_MS = 25;
/** A new connection gets this long to deliver its request before it may be closed as idle. */
const FIRST_REQUEST_GRACE_MS = 1_000;

/**
 * Drains an HTTP server without dropping a request it has accepted. Create it when the server is
 * created: it notes when each connection opened (once per connection, nothing per request).
 *
 * `drain` stops accepting connections, marks every response `Connection: close` (whichever path
 * answers it), and closes connections that sit idle between requests, then runs `close` (Fastify's
 * close, with its plugins' hooks) once every connection has ended. Node's own `server.close()` closes
 * every idle connection at once, among them connections just accepted whose request has not been
 * read yet; those would see a reset of a request the client had sent. So idle connections are only
 * closed while no new connection is still within its grace to deliver its first request.
 */
export class HttpDrain {
  private readonly openedAt = new Map<Socket, number>();

  constructor(private readonly server: Server) {
    server.on('connection', (socket: Socket) => {
      this.openedAt.set(socket, performance.now());
      socket.once('close', () => this.openedAt.delete(socket));
    });
  }

  async drain(close: () => Promise<void>): Promise<void> {
    const server = this.server;
    server.prependListener('request', (_request, response) => response.setHeader('Connection', 'close'));
    // net.Server's close: stops accepting, and calls back once every connection has ended.
    const ended = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
    const sweep = setInterval(() => this.closeIdle(), SWEEP_MS);
    this.closeIdle();
    try {
      await ended;
    } finally {
      clearInterval(sweep);
    }
    await close();
  }

  private closeIdle(): void {
    const now = performance.now();
    for (const [socket, openedAt] of this.openedAt) {
      if (socket.bytesRead === 0 && now - openedAt < FIRST_REQUEST_GRACE_MS) return;
    }
    this.server.closeIdleConnections();
  }
}
