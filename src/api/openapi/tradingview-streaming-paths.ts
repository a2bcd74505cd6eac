import { TRADINGVIEW_STREAMING_SCHEMAS } from '../tradingview/streaming-schemas';
import { TRADINGVIEW_STREAMING_PATH } from '../tradingview/tradingview-streaming-route';
import { STREAMING_HEARTBEAT_MS, STREAMING_MAX_UNSENT_BYTES } from '../tradingview/tradingview-streaming';
import { EndpointFamily, schemaRef } from './endpoint-family';
import { HEALTH_ERRORS, NO_STORE_HEADERS } from './responses';

const errorRef = (name: string) => ({ $ref: `#/components/responses/${name}` });

/** TradingView's real-time feed: a chunked HTTP/1.1 response that never ends, one JSON message a line. */
export const TRADINGVIEW_STREAMING: EndpointFamily = {
  tag: { name: 'tradingview-streaming', description: "TradingView's data integration: the real-time feed" },
  schemas: TRADINGVIEW_STREAMING_SCHEMAS,
  paths: {
    [TRADINGVIEW_STREAMING_PATH]: {
      get: {
        operationId: 'tradingViewStreaming',
        tags: ['tradingview-streaming'],
        summary:
          'Trades, quotes and daily bars of every listed market, as they happen, one JSON object a line',
        description:
          'HTTP/1.1 chunked transfer encoding; the server never ends the response but at shutdown (reconnect at ' +
          'once). Each line is one compact JSON object ending in `\\n`: a trade (`f` "t") for each new trade, a ' +
          'quote (`f` "q") when the best bid or ask changes, today\'s bar (`f` "d") when a trade of today changes ' +
          `it, and a heartbeat (\`f\` "h") every ${STREAMING_HEARTBEAT_MS / 1000} s. ` +
          'Nothing is sent at connect. Every connection gets the same lines in the same order; one that leaves ' +
          `more than ${STREAMING_MAX_UNSENT_BYTES} bytes unread is cut off and reconnects.`,
        responses: {
          '200': {
            description: 'the feed, one message a line',
            headers: { 'Cache-Control': NO_STORE_HEADERS['Cache-Control'] },
            content: { 'application/json': { schema: schemaRef('TradingViewStreamingMessage') } },
          },
          ...HEALTH_ERRORS,
          '429': errorRef('TooManyRequests'),
        },
      },
    },
  },
};
