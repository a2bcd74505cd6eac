import { WebSocket } from 'ws';
import { MarketInfo } from '../../market/market-info';
import { BookChannelSequencer } from '../../market/stream/book-channel-sequencer';
import { readClientFrame } from '../../market/stream/client-frame';
import { parseStreamChannel, StreamChannel } from '../../market/stream/stream-channel';
import { quoted } from '../../market/stream/stream-error';
import { BookFeeds } from './book-feeds';
import { StreamLimits } from './stream-limits';
import { ConnectionErrorCode, StreamReply } from './stream-reply';

/**
 * Frames handed to the socket and not yet written out: past this, the book channels' messages wait in
 * their sequencers, where a reader that does not keep up is conflated instead of buffered.
 */
const MAX_UNWRITTEN_FRAMES = 16;

interface BookSubscription {
  readonly sequencer: BookChannelSequencer;
  release(): void;
}

export interface StreamConnectionContext {
  /** The listed market a channel's instrument names, if any. */
  findMarket(instrument: string): MarketInfo | undefined;
  readonly books: BookFeeds;
  readonly limits: StreamLimits;
}

/** One reader of `/stream`: its requests, its channels, and the order in which it is sent their messages. */
export class StreamConnection {
  private readonly books = new Map<string, BookSubscription>();
  private unwritten = 0;
  private lastSentAt = Date.now();
  private closed = false;

  constructor(
    private readonly socket: WebSocket,
    private readonly context: StreamConnectionContext,
  ) {
    socket.on('message', (data, isBinary) => {
      if (isBinary) this.error('binary_frame', 'frames are JSON text');
      else this.onText(data.toString());
    });
    socket.on('close', () => this.dispose());
  }

  /** Sends a heartbeat when nothing was sent for the heartbeat interval. */
  heartbeatIfSilent(now: number): void {
    if (now - this.lastSentAt >= this.context.limits.heartbeatMs) this.send({ type: 'heartbeat', ts: now });
  }

  /** Says the server stops, and closes with the code that asks the reader to reconnect. */
  shutDown(closeCode: number): void {
    this.send({ type: 'shutdown' });
    this.socket.close(closeCode, 'service restart');
    this.dispose();
  }

  private onText(text: string): void {
    const { limits } = this.context;
    const frame = readClientFrame(text, {
      maxFrameBytes: limits.maxFrameBytes,
      maxChannelsPerFrame: limits.maxSubscriptions,
    });
    if (!frame.ok) return this.send({ type: 'error', ...frame.error });
    const { request } = frame;
    if (request.op === 'ping') return this.send({ type: 'pong' });
    for (const name of request.channels) {
      const parsed = parseStreamChannel(name);
      if (!parsed.ok) this.send({ type: 'error', ...parsed.error });
      else if (request.op === 'subscribe') this.subscribe(parsed.channel);
      else this.unsubscribe(parsed.channel);
    }
    this.pump();
  }

  private subscribe(channel: StreamChannel): void {
    if (channel.kind !== 'book')
      return this.error('not_implemented', `${quoted(channel.name)} is not served yet; book channels are`);
    if (this.books.has(channel.name)) return this.send({ type: 'subscribed', channel: channel.name });
    const market = this.context.findMarket(channel.instrument);
    if (!market) return this.error('unknown_channel', `no listed market ${quoted(channel.instrument)}`);
    if (this.books.size >= this.context.limits.maxSubscriptions)
      return this.error(
        'too_many_subscriptions',
        `at most ${this.context.limits.maxSubscriptions} channels per connection`,
      );
    const followed = this.context.books.follow(market, (event) => {
      this.books.get(channel.name)?.sequencer.onEvent(event);
      this.pump();
    });
    const sequencer = new BookChannelSequencer(followed.feed, { maxBacklog: this.context.limits.maxBacklog });
    this.books.set(channel.name, { sequencer, release: followed.release });
    this.send({ type: 'subscribed', channel: channel.name });
  }

  private unsubscribe(channel: StreamChannel): void {
    const subscription = this.books.get(channel.name);
    if (!subscription) return this.error('not_subscribed', `not subscribed to ${quoted(channel.name)}`);
    subscription.release();
    this.books.delete(channel.name);
    this.send({ type: 'unsubscribed', channel: channel.name });
  }

  /** Sends the channels' messages, one channel after another, while the socket keeps up. */
  private pump(): void {
    let sent = true;
    while (sent && this.unwritten < MAX_UNWRITTEN_FRAMES && !this.closed) {
      sent = false;
      for (const { sequencer } of this.books.values()) {
        const message = sequencer.next();
        if (message === undefined) continue;
        this.send(message);
        sent = true;
      }
    }
  }

  private error(code: ConnectionErrorCode, message: string): void {
    this.send({ type: 'error', code, message });
  }

  private send(reply: StreamReply): void {
    if (this.closed || this.socket.readyState !== WebSocket.OPEN) return;
    this.unwritten++;
    this.lastSentAt = Date.now();
    this.socket.send(JSON.stringify(reply), () => {
      this.unwritten--;
      if (this.unwritten === MAX_UNWRITTEN_FRAMES - 1) this.pump();
    });
  }

  private dispose(): void {
    if (this.closed) return;
    this.closed = true;
    for (const subscription of this.books.values()) subscription.release();
    this.books.clear();
  }
}
