import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ClientRateLimit } from './client-rate-limit';

const UNLIMITED = /^\/(health\/|metrics\/?(\?|$))/;

/**
 * The per-client limit on every API path Fastify answers but health and metrics; a limited request
 * leaves through the exception filter as a 429 with the JSON error body. The fast path applies the
 * same `limit` to what it answers.
 */
export function applyRateLimit(app: NestFastifyApplication, limit: ClientRateLimit): void {
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRequest', (request, reply, done) => {
      if (UNLIMITED.test(request.url)) return done();
      const decision = limit.hit(request.ip);
      reply.headers(decision.headers);
      done(decision.limited ? limit.error(decision) : undefined);
    });
}
