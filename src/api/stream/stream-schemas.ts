import { Static, TSchema, Type } from '@sinclair/typebox';
import { CHART_RESOLUTION_NAMES } from '../../market/bars/chart-resolution';
import { ClientFrameErrorCode, ClientRequest } from '../../market/stream/client-frame';
import { ChannelErrorCode, MAX_CHANNEL_NAME_LENGTH } from '../../market/stream/stream-channel';
import { ListingSummary } from '../listing/listing-schemas';
import { DIGITS, TAKER_SIDE, UNSIGNED_DECIMAL, UPPER_PAIR } from '../schema/wire-parts';
import { CandleFrame } from './candle-frame';
import { channel, frame, INSTRUMENT, RESOLUTION, unixMs } from './frame-parts';
import { StreamLimits } from './stream-limits';
import { ConnectionErrorCode, StreamReply } from './stream-reply';

/** The frames of `/stream`, as the AsyncAPI document and the stream's tests read them. */

export type StreamErrorCode = ClientFrameErrorCode | ChannelErrorCode | ConnectionErrorCode;

/** Every error code with its meaning; keyed by the code types, so that a new code cannot go undocumented. */
export const ERROR_CODES: Readonly<Record<StreamErrorCode, string>> = {
  frame_too_large: 'the frame is longer than x-limits.maxFrameBytes; it is not read',
  bad_json: 'the frame is not JSON',
  bad_frame: 'the frame is JSON but not an object',
  unknown_op: 'op is missing, not a string, or not subscribe, unsubscribe or ping',
  bad_channels: 'channels is missing, not an array, empty, or holds a non-string',
  too_many_channels: 'one frame names more channels than x-limits.maxSubscriptions',
  unknown_channel:
    'a kind other than book, trades, candles or ticker, or an instrument that is not a listed market',
  bad_channel: 'a malformed channel name, or a candles channel without a known resolution',
  not_ready:
    'the process has not loaded the market list yet (it is not ready): the channel may well exist; subscribe again in a moment',
  too_many_subscriptions: 'the connection would follow more than x-limits.maxSubscriptions channels',
  not_subscribed: 'an unsubscribe of a channel the connection does not follow',
  binary_frame: 'a binary frame: the protocol is JSON text',
  rate_limited:
    'more subscribe or unsubscribe frames than x-limits.subscribeRate per second; the frame is not read',
};

const BOOK_CHANNEL = `^book\\.${INSTRUMENT}$`;
const TRADES_CHANNEL = `^trades\\.${INSTRUMENT}$`;
const ANY_CHANNEL = `^(ticker|(book|trades)\\.${INSTRUMENT}|candles\\.${INSTRUMENT}\\.${RESOLUTION})$`;

const LEVELS = Type.Array(
  Type.Array(Type.String({ pattern: UNSIGNED_DECIMAL }), {
    minItems: 2,
    maxItems: 2,
    examples: [['65000.00', '0.35000000']],
  }),
  {
    description: '[price, amount] levels as the listing endpoints write them; amount "0" for a level removed',
  },
);
const SEQ = Type.Integer({ minimum: 0, description: "the book's version after the message" });
const CHECKSUM = Type.Integer({
  minimum: -2147483648,
  maximum: 2147483647,
  description:
    'CRC-32 (IEEE), as a signed 32-bit integer, of the first 25 levels of each side after the message: bid price, bid amount, ask price, ask amount of level 1, then of level 2 and so on, joined with ":"',
});
const BOOK_TS = unixMs("the book's last change");

export const StreamTrade = frame("a trade: /trades/{instrument}'s row under the stream's names", {
  id: Type.String({ pattern: DIGITS, description: "the exchange's trade id (tradeID)" }),
  price: Type.String({ pattern: UNSIGNED_DECIMAL, description: 'price at the price scale' }),
  amount: Type.String({
    pattern: UNSIGNED_DECIMAL,
    description: 'amount in the base asset at the amount scale (base_volume)',
  }),
  side: TAKER_SIDE,
  time: unixMs('time of the trade'),
});

/** The `/summary` record, as the HTTP document describes it, with the stream's fields around it. */
export const TickerFrame = Type.Object(
  {
    type: Type.Literal('ticker'),
    channel: Type.Literal('ticker'),
    market: Type.String({
      pattern: UPPER_PAIR,
      description: "the market's key in /summary",
      examples: ['BTC_USDT'],
    }),
    ...ListingSummary.properties,
  },
  { description: "one market's /summary record", additionalProperties: false },
);

export const SnapshotFrame = frame(
  'the whole book, best first: the first message of a book channel, and again after resyncing or a conflation',
  {
    type: Type.Literal('snapshot'),
    channel: channel(BOOK_CHANNEL, 'book.btc_usdt'),
    seq: SEQ,
    bids: LEVELS,
    asks: LEVELS,
    checksum: CHECKSUM,
    ts: BOOK_TS,
  },
);

export const UpdateFrame = frame('the levels that changed since the previous message of the channel', {
  type: Type.Literal('update'),
  channel: channel(BOOK_CHANNEL, 'book.btc_usdt'),
  seq: SEQ,
  prevSeq: Type.Integer({
    minimum: 0,
    description:
      'the seq of the previous message of the channel on this connection: a reader holding another missed something and resubscribes',
  }),
  bids: LEVELS,
  asks: LEVELS,
  checksum: CHECKSUM,
  ts: BOOK_TS,
});

export const TradesFrame = frame(
  'trades of the instrument stored since the last message, oldest first (by time, then id)',
  {
    type: Type.Literal('trades'),
    channel: channel(TRADES_CHANNEL, 'trades.btc_usdt'),
    trades: Type.Array(StreamTrade, { minItems: 1 }),
  },
);

/** The payload of every frame the server sends, by its `type`. */
export const SERVER_FRAMES: Readonly<Record<StreamReply['type'], TSchema>> = {
  subscribed: frame('a subscription is taken (again, without a new snapshot, if already followed)', {
    type: Type.Literal('subscribed'),
    channel: channel(ANY_CHANNEL, 'book.btc_usdt'),
  }),
  unsubscribed: frame('a subscription is dropped: nothing more comes on the channel', {
    type: Type.Literal('unsubscribed'),
    channel: channel(ANY_CHANNEL, 'book.btc_usdt'),
  }),
  error: frame('a request the client can correct; the connection stays open', {
    type: Type.Literal('error'),
    code: Type.Unsafe<StreamErrorCode>({
      type: 'string',
      enum: Object.keys(ERROR_CODES),
      description: `short and stable, for programs: ${Object.entries(ERROR_CODES)
        .map(([code, meaning]) => `${code} (${meaning})`)
        .join('; ')}`,
    }),
    message: Type.String({ description: 'for people; may change' }),
  }),
  pong: frame('the answer to ping', { type: Type.Literal('pong') }),
  heartbeat: frame('nothing else was sent for x-limits.heartbeatMs', {
    type: Type.Literal('heartbeat'),
    ts: unixMs('when it was sent'),
  }),
  shutdown: frame(
    'the process stops; the connection then closes with code 1012: reconnect, to another replica',
    { type: Type.Literal('shutdown') },
  ),
  snapshot: SnapshotFrame,
  update: UpdateFrame,
  status: frame(
    "on a book channel: the gateway's own book is not live, nothing follows until a new snapshot; on a trades channel: trades may have been missed (/trades/{instrument} has them)",
    {
      type: Type.Literal('status'),
      channel: channel(`${BOOK_CHANNEL}|${TRADES_CHANNEL}`, 'book.btc_usdt'),
      state: Type.Literal('resyncing'),
    },
  ),
  trades: TradesFrame,
  candle: CandleFrame,
  ticker: TickerFrame,
};

/** The payload of every request a client sends, by its `op`; other fields are ignored (a client may tag its requests). */
export function clientFrames(limits: StreamLimits): Readonly<Record<ClientRequest['op'], TSchema>> {
  const channels = Type.Array(
    Type.String({
      maxLength: MAX_CHANNEL_NAME_LENGTH,
      pattern: `^(ticker|(book|trades)\\.[A-Za-z0-9.]+([_-][A-Za-z0-9.]+)+|candles\\.[A-Za-z0-9.]+([_-][A-Za-z0-9.]+)+\\.(${[...CHART_RESOLUTION_NAMES, 'D', 'W', 'M'].join('|')}))$`,
      examples: ['book.btc_usdt', 'trades.BTC-USDT', 'candles.btc_usdt.1', 'ticker'],
    }),
    {
      minItems: 1,
      maxItems: limits.maxSubscriptions,
      description:
        'channel names: book.{instrument}, trades.{instrument}, candles.{instrument}.{resolution} (1, 5, 15, 30, 60, 240, 1D, 1W, 1M) or ticker, the instrument written as in the listing paths (any case, "_" or "-")',
    },
  );
  return {
    subscribe: Type.Object(
      { op: Type.Literal('subscribe'), channels },
      { description: 'follow the channels: subscribed, then their messages' },
    ),
    unsubscribe: Type.Object(
      { op: Type.Literal('unsubscribe'), channels },
      { description: 'stop following the channels: unsubscribed' },
    ),
    ping: Type.Object({ op: Type.Literal('ping') }, { description: 'asks for a pong' }),
  };
}

export type TickerFrameBody = Static<typeof TickerFrame>;
export type SnapshotFrameBody = Static<typeof SnapshotFrame>;
export type UpdateFrameBody = Static<typeof UpdateFrame>;
export type TradesFrameBody = Static<typeof TradesFrame>;
