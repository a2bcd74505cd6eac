import rateLimit from '@fastify/rate-limit';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ApiError } from './api-error';

const UNLIMITED = /^\/(health\/|metrics$)/;

/** Per-client-address limit on every API path but health and metrics, answered with 429 and the JSON error body. */
export async function registerRateLimit(app: NestFastifyApplication, perMinute: number): Promise<void> {
  if (perMinute === 0) return;
  await app.register(rateLimit, {
    global: true,
    max: perMinute,
    timeWindow: 60_000,
    allowList: (request) => UNLIMITED.test(request.url),
    // The plugin throws what this returns; as an ApiError it leaves through the exception filter as a 429.
    errorResponseBuilder: (_request, context) =>
      new ApiError(
        429,
        'too_many_requests',
        `rate limit of ${context.max} requests per minute exceeded; retry in ${context.after}`,
      ),
  });
}
