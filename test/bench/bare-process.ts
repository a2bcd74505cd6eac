import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CLOSE, ServerReady } from './server-process';

/** A recorded response as it crosses the IPC channel: bodies in base64. */
export interface RecordedForBare {
  readonly path: string;
  readonly plainHeaders: Record<string, string>;
  readonly plainBody: string;
  readonly gzipHeaders: Record<string, string>;
  readonly gzipBody: string;
}

interface Answer {
  readonly headers: Record<string, string>;
  readonly body: Buffer;
}

/** Fastify's default, so that both servers keep idle connections alike. */
const KEEP_ALIVE_TIMEOUT_MS = 72_000;

/**
 * The peer of the gateway: a bare node:http server that answers each recorded path with the bytes
 * and headers the gateway sent for it, gzipped when the request accepts gzip. It does no more work
 * than a lookup, so what it does not pay is the framework, the gateway's cache lookup and whatever
 * else the gateway's process does (it also ingests).
 * It waits for the recorded responses as its first message, then listens on a free loopback port.
 */
function main(): void {
  process.once('message', (recorded: RecordedForBare[]) => {
    const answers = new Map<string, { plain: Answer; gzip: Answer }>();
    for (const response of recorded) {
      answers.set(response.path, {
        plain: { headers: response.plainHeaders, body: Buffer.from(response.plainBody, 'base64') },
        gzip: { headers: response.gzipHeaders, body: Buffer.from(response.gzipBody, 'base64') },
      });
    }
    const server = createServer((request, response) => {
      const answer = answers.get(request.url ?? '');
      if (!answer) {
        response.writeHead(404).end();
        return;
      }
      const { headers, body } = request.headers['accept-encoding']?.includes('gzip')
        ? answer.gzip
        : answer.plain;
      response.writeHead(200, headers).end(body);
    });
    server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      const ready: ServerReady = { url: `http://127.0.0.1:${port}` };
      process.send?.(ready);
    });
    process.on('message', (message) => {
      if (message !== CLOSE) return;
      server.close(() => process.exit(0));
      server.closeAllConnections();
    });
  });
}

main();
