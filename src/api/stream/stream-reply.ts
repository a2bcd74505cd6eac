import { BookChannelMessage } from '../../market/stream/book-channel-message';
import { CandleMessage } from './candle-message';
import { TickerMessage } from './ticker-feed';
import { TradesChannelMessage } from './trades-message';

/** Every frame the server sends on `/stream`. */
export type StreamReply =
  | { readonly type: 'subscribed'; readonly channel: string }
  | { readonly type: 'unsubscribed'; readonly channel: string }
  | { readonly type: 'error'; readonly code: string; readonly message: string }
  | { readonly type: 'pong' }
  | { readonly type: 'heartbeat'; readonly ts: number }
  | { readonly type: 'shutdown' }
  | BookChannelMessage
  | TradesChannelMessage
  | CandleMessage
  | TickerMessage;

/**
 * Error codes of the connection itself, besides those of `readClientFrame` and `parseStreamChannel`:
 *
 * | code                     | when                                                            |
 * |--------------------------|-----------------------------------------------------------------|
 * | `unknown_channel`        | also: the instrument is not a listed market                     |
 * | `not_ready`              | the process has not loaded the market list yet: try again soon  |
 * | `too_many_subscriptions` | the connection would follow more than the `maxSubscriptions` stream limit |
 * | `not_subscribed`         | an unsubscribe of a channel the connection does not follow      |
 * | `binary_frame`           | a binary frame: the protocol is JSON text                       |
 * | `rate_limited`           | more subscribe or unsubscribe frames than the `subscribeRate` stream limit |
 */
export type ConnectionErrorCode =
  | 'unknown_channel'
  | 'not_ready'
  | 'too_many_subscriptions'
  | 'not_subscribed'
  | 'binary_frame'
  | 'rate_limited';

/** Close code of a connection the server closes because it stops: reconnect, to another replica. */
export const SERVICE_RESTART_CLOSE = 1012;

/** Close code of a connection that stayed behind for the `maxBehindMs` stream limit. */
export const TOO_SLOW_CLOSE = 4008;
