import type { FastifyInstance } from 'fastify';
import type { ApiReply } from './api-http';

export const DATA_SOURCE_HEADER = 'x-data-source';

/**
 * `X-Data-Source: sandbox` on every response while the data served is the built-in sandbox
 * exchange's; Fastify's hook and the fast path both add it here.
 */
export class DataSourceHeader {
  constructor(private readonly sandboxFed: () => boolean) {}

  add(reply: ApiReply): void {
    if (this.sandboxFed()) reply.header(DATA_SOURCE_HEADER, 'sandbox');
  }

  apply(fastify: FastifyInstance): void {
    fastify.addHook('onRequest', (_request, reply, done) => {
      this.add(reply);
      done();
    });
  }
}
