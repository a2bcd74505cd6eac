import type { FastifyInstance } from 'fastify';
import { ApiError } from '../http/api-error';
import { STREAM_PATH } from './stream-server';

/**
 * A `GET /stream` (or HEAD) without the websocket upgrade, which the stream server never sees, gets
 * a 426 naming the upgrade instead of the 404 of a path without a route. As a route, /stream is a
 * known path: another method gets the 405 with `Allow: GET, HEAD`, as on every other path.
 */
export function serveUpgradeRequired(fastify: FastifyInstance): void {
  fastify.get(STREAM_PATH, () => {
    throw ApiError.upgradeRequired(
      `${STREAM_PATH} is the live stream, a websocket: ask for it with Upgrade: websocket`,
    );
  });
}
