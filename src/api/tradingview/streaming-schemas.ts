import { Static, Type } from '@sinclair/typebox';

/**
 * The messages of `GET /tradingview/streaming`, one compact JSON object per line: TradingView's
 * trade, quote and daily-bar shapes, and a heartbeat. Prices and sizes are JSON numbers written with
 * the market's digits (prices at its price scale, sizes and volumes at its amount scale).
 */

const SYMBOL = Type.String({
  pattern: '^[A-Z0-9._]+$',
  description: "the market's TradingView symbol, as /tradingview/symbol_info lists it",
  examples: ['BTCUSDT'],
});
const unixSeconds = (description: string) =>
  Type.Integer({ minimum: 0, description: `${description}, Unix seconds` });
const price = (description: string) => Type.Number({ minimum: 0, description });
const size = (description: string) => Type.Number({ exclusiveMinimum: 0, description });

export const TradingViewTrade = Type.Object(
  {
    id: SYMBOL,
    p: price('the trade price'),
    t: unixSeconds('the trade time'),
    f: Type.Literal('t'),
    s: size('the base amount traded'),
  },
  {
    description: 'a trade, sent once, within a second of the gateway storing it; times never go back',
    additionalProperties: false,
    examples: [{ id: 'BTCUSDT', p: 65000.5, t: 1767225600, f: 't', s: 0.015 }],
  },
);

export const TradingViewQuote = Type.Object(
  {
    id: SYMBOL,
    t: unixSeconds("the book's last change"),
    f: Type.Literal('q'),
    ap: price('the best ask price'),
    as: size('the amount at the best ask'),
    bp: price('the best bid price'),
    bs: size('the amount at the best bid'),
  },
  {
    description: 'the best bid and ask, sent when either price or amount changed (both sides present)',
    additionalProperties: false,
    examples: [{ id: 'BTCUSDT', t: 1767225600, f: 'q', ap: 65001, as: 0.5, bp: 65000, bs: 1.2 }],
  },
);

export const TradingViewDailyBar = Type.Object(
  {
    id: SYMBOL,
    t: unixSeconds("the day's start, 00:00 UTC"),
    f: Type.Literal('d'),
    o: price('open'),
    h: price('high'),
    l: price('low'),
    c: price('close'),
    v: Type.Number({ minimum: 0, description: 'base volume' }),
  },
  {
    description: "today's bar as /tradingview/history builds it, sent whenever a trade of today changed it",
    additionalProperties: false,
    examples: [{ id: 'BTCUSDT', t: 1767225600, f: 'd', o: 64000, h: 65500, l: 63900, c: 65000.5, v: 123.45 }],
  },
);

export const TradingViewHeartbeat = Type.Object(
  { f: Type.Literal('h'), t: unixSeconds('when it was sent') },
  {
    description:
      'sent when no other message was for a few seconds (at least every 5 s): the connection is alive',
    additionalProperties: false,
    examples: [{ f: 'h', t: 1767225600 }],
  },
);

export const TradingViewStreamingMessage = Type.Union(
  [TradingViewTrade, TradingViewQuote, TradingViewDailyBar, TradingViewHeartbeat],
  { description: 'one line of /tradingview/streaming' },
);

export type TradingViewStreamingMessage = Static<typeof TradingViewStreamingMessage>;

export const TRADINGVIEW_STREAMING_SCHEMAS = {
  TradingViewTrade,
  TradingViewQuote,
  TradingViewDailyBar,
  TradingViewHeartbeat,
  TradingViewStreamingMessage,
};
