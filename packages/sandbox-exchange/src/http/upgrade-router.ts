import { Logger } from '@nestjs/common';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';

export type UpgradeHandler = (request: IncomingMessage, socket: Duplex, head: Buffer) => void;

/**
 * Routes websocket upgrade requests of the sandbox's HTTP server by path, so that the SignalR hubs
 * and the gateway share one port with the REST interface, as the exchange's do.
 */
export class UpgradeRouter {
  private readonly logger = new Logger(UpgradeRouter.name);
  private readonly routes: { path: string; handler: UpgradeHandler }[] = [];
  /** Every socket upgraded or refused here that is still open: the HTTP server no longer tracks them. */
  private readonly sockets = new Set<Duplex>();

  /** `path` matches exactly, with or without a trailing slash. */
  register(path: string, handler: UpgradeHandler): void {
    this.routes.push({ path: path.replace(/\/$/, ''), handler });
  }

  attach(server: Server): void {
    server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
      const path = new URL(request.url ?? '/', 'http://sandbox').pathname.replace(/\/$/, '');
      const route = this.routes.find((candidate) => candidate.path === path);
      if (!route) {
        socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
        return;
      }
      try {
        route.handler(request, socket, head);
      } catch (error) {
        this.logger.error(`upgrade of ${path} failed: ${(error as Error).message}`);
        socket.destroy();
      }
    });
  }

  /**
   * Destroys the sockets still open, for a shutdown once the interfaces closed theirs: a refusal's
   * socket stays open until its client closes its side, and the server's close waits for it.
   * Returns how many there were.
   */
  cutOff(): number {
    const open = [...this.sockets];
    for (const socket of open) socket.destroy();
    return open.length;
  }
}
