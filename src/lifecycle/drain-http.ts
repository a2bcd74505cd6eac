import type { Server } from 'node:http';

/** How often connections left idle during a drain are closed. */
const IDLE_SWEEP_MS = 25;

/**
 * Stops accepting connections and lets the requests under way finish: `close` closes the server
 * (Fastify's close, which also runs its plugins' close hooks). Until it has, every response carries
 * `Connection: close`, whichever path answers it, and connections that fall idle are closed, so that
 * clients with keep-alive connections move to another replica instead of holding this one open.
 */
export async function drainHttpServer(server: Server, close: () => Promise<void>): Promise<void> {
  server.prependListener('request', (_request, response) => response.setHeader('Connection', 'close'));
  const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
  try {
    await close();
  } finally {
    clearInterval(sweep);
  }
}
