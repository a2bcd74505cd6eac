import type { ApiReply, ApiRequest } from './api-http';

/** An endpoint with its arguments taken from the request: Fastify's, or the fast path's, which has the same parts. */
export type RouteHandler = (request: ApiRequest, reply: ApiReply) => void | Promise<void>;

/** A GET route of the API (the API takes GETs only; Fastify answers HEAD from it). */
export interface ApiRoute {
  /** The path as Fastify matches it: `/summary`, `/orderbook/:instrument`. */
  readonly path: string;
  readonly handler: RouteHandler;
  /**
   * The fast path may answer it too: a hot cached GET whose path is exact or ends in its only
   * parameter, and which answers the same whichever path serves it.
   */
  readonly fastPath: boolean;
}
