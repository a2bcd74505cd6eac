import type { FastifyInstance } from 'fastify';
import { streamingHeaders, TradingViewStreaming } from './tradingview-streaming';

export const TRADINGVIEW_STREAMING_PATH = '/tradingview/streaming';

/**
 * Serves `GET /tradingview/streaming` from `streaming` (after every hook: security headers, rate
 * limit, CORS); a HEAD gets the headers alone.
 */
export function serveTradingViewStreaming(fastify: FastifyInstance, streaming: TradingViewStreaming): void {
  fastify.get(TRADINGVIEW_STREAMING_PATH, (request, reply) => {
    if (request.method === 'HEAD') {
      reply.headers(streamingHeaders({})).send();
      return;
    }
    reply.hijack();
    streaming.attach(reply.raw, reply.getHeaders() as Record<string, string>);
  });
}
