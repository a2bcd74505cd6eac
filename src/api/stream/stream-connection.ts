import { WebSocket } from 'ws';
import { MarketInfo } from '../../market/market-info';
import { BookChannelSequencer } from '../../market/stream/book-channel-sequencer';
import { readClientFrame } from '../../market/stream/client-frame';
import { parseStreamChannel, StreamChannel } from '../../market/stream/stream-channel';
import { quoted } from '../../market/stream/stream-error';
import { BehindWatch } from './behind-watch';
import { MarketBooks } from '../views/market-books';
import { frameBytes } from './frame-bytes';
import { StreamLimits } from './stream-limits';
import { StreamMetrics } from './stream-metrics';
import { ConnectionErrorCode, StreamReply, TOO_SLOW_CLOSE } from './stream-reply';
import { TickerFeed } from './ticker-feed';
import { TickerQueue } from './ticker-queue';
import { TokenBucket } from './token-bucket';
import { TradeFeeds } from './trade-feeds';
import { TradesQueue } from './trades-queue';
import { CandleFeeds } from './candle-feeds';
import { CandleQueue } from './candle-queue';

/**
 * Frames handed to the socket and not yet written out: past this, the channels' messages wait in
 * their own queues, which bound what a reader that does not keep up may hold.
 */
const MAX_UNWRITTEN_FRAMES = 16;

/** The connection's transport, held back while a batch of frames is written so that they go out together. */
export interface Corkable {
  cork(): void;
  uncork(): void;
}

/** What one connection follows of one channel: the messages it has to send, in order. */
interface ChannelSubscription {
  next(): StreamReply | undefined;
  release(): void;
}

export interface StreamConnectionContext {
  /** The listed market a channel's instrument names, if any. */
  findMarket(instrument: string): MarketInfo | undefined;
  /** Whether the market list is loaded: before, no instrument is known, listed or not. */
  listingReady(): boolean;
  readonly books: Pick<MarketBooks, 'follow'>;
  readonly trades: TradeFeeds;
  readonly candles: CandleFeeds;
  readonly ticker: TickerFeed;
  readonly limits: StreamLimits;
  readonly metrics?: StreamMetrics;
  /** The clock of the subscribe rate and of being behind; `Date.now` unless a test sets it. */
  readonly now?: () => number;
}

/** One reader of `/stream`: its requests, its channels, and the order in which it is sent their messages. */
export class StreamConnection {
  private readonly channels = new Map<string, ChannelSubscription>();
  private readonly now: () => number;
  private readonly subscribeRate: TokenBucket;
  private readonly behind: BehindWatch;
  private unwritten = 0;
  private lastSentAt: number;
  private pumpScheduled = false;
  private closed = false;

  constructor(
    private readonly socket: WebSocket,
    private readonly context: StreamConnectionContext,
    private readonly transport?: Corkable,
  ) {
    const { limits } = context;
    this.now = context.now ?? Date.now;
    this.lastSentAt = this.now();
    this.subscribeRate = new TokenBucket(limits.subscribeRate, limits.subscribeRate, this.now);
    this.behind = new BehindWatch(limits.maxBehindMs);
    socket.on('message', (data, isBinary) => {
      if (isBinary) this.error('binary_frame', 'frames are JSON text');
      else this.onText(data.toString());
    });
    socket.on('close', () => this.dispose());
  }

  /** The names of the channels the connection follows. */
  channelNames(): Iterable<string> {
    return this.channels.keys();
  }

  /** Sends a heartbeat when nothing was sent for the heartbeat interval. */
  heartbeatIfSilent(now: number): void {
    if (now - this.lastSentAt >= this.context.limits.heartbeatMs) this.send({ type: 'heartbeat', ts: now });
  }

  /**
   * Closes the connection as too slow when its socket has held unwritten frames, without once writing all
   * out, for the longest a reader may stay behind: its channels' messages wait in vain meanwhile.
   */
  closeIfTooSlow(now: number): void {
    if (this.closed || !this.behind.tooLong(now)) return;
    this.context.metrics?.closedTooSlow();
    this.socket.close(TOO_SLOW_CLOSE, 'too slow');
    this.dispose();
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
    if (!this.subscribeRate.take())
      return this.error(
        'rate_limited',
        `at most ${limits.subscribeRate} subscribe or unsubscribe frames per second`,
      );
    for (const name of request.channels) {
      const parsed = parseStreamChannel(name);
      if (!parsed.ok) this.send({ type: 'error', ...parsed.error });
      else if (request.op === 'subscribe') this.subscribe(parsed.channel);
      else this.unsubscribe(parsed.channel);
    }
    this.pump();
  }

  private subscribe(channel: StreamChannel): void {
    if (this.channels.has(channel.name)) return this.send({ type: 'subscribed', channel: channel.name });
    const market = channel.kind === 'ticker' ? undefined : this.context.findMarket(channel.instrument);
    if (channel.kind !== 'ticker' && !market)
      return this.context.listingReady()
        ? this.error('unknown_channel', `no listed market ${quoted(channel.instrument)}`)
        : this.error('not_ready', 'the market list is not loaded yet; subscribe again in a moment');
    if (this.channels.size >= this.context.limits.maxSubscriptions)
      return this.error(
        'too_many_subscriptions',
        `at most ${this.context.limits.maxSubscriptions} channels per connection`,
      );
    const subscription = !market
      ? this.followTicker()
      : channel.kind === 'trades'
        ? this.followTrades(channel.name, market)
        : channel.kind === 'candles'
          ? this.followCandles(channel, market)
          : this.followBook(market);
    this.channels.set(channel.name, subscription);
    this.send({ type: 'subscribed', channel: channel.name });
  }

  private followBook(market: MarketInfo): ChannelSubscription {
    // The feed comes with the follow, and the sequencer reads it: events before it exists are in its snapshot.
    const held: { sequencer?: BookChannelSequencer } = {};
    const followed = this.context.books.follow(market, (event) => {
      const { sequencer } = held;
      const conflations = sequencer?.conflations;
      sequencer?.onEvent(event);
      if (sequencer?.conflations !== conflations) this.context.metrics?.conflated('book');
      this.schedulePump();
    });
    const sequencer = new BookChannelSequencer(followed.feed, { maxBacklog: this.context.limits.maxBacklog });
    held.sequencer = sequencer;
    return { next: () => sequencer.next(), release: followed.release };
  }

  private followTrades(name: string, market: MarketInfo): ChannelSubscription {
    const queue = new TradesQueue(name, this.context.limits.maxBacklog);
    const release = this.context.trades.follow(market, (message) => {
      if (!queue.push(message)) this.context.metrics?.conflated('trades');
      this.schedulePump();
    });
    return { next: () => queue.next(), release };
  }

  private followCandles(
    channel: Extract<StreamChannel, { kind: 'candles' }>,
    market: MarketInfo,
  ): ChannelSubscription {
    const queue = new CandleQueue(channel.name, market, this.context.limits.maxBacklog);
    const followed = this.context.candles.follow(market, channel.resolution, (event) => {
      queue.push(event);
      this.schedulePump();
    });
    // Bars built already: the bar being built, if its bucket has a trade; else the first event brings it.
    if (followed.built)
      queue.push({ changes: { closed: [], corrected: [], open: followed.current }, initial: true });
    return { next: () => queue.next(), release: followed.release };
  }

  private followTicker(): ChannelSubscription {
    const queue = new TickerQueue();
    const followed = this.context.ticker.follow((messages) => {
      queue.push(messages);
      this.schedulePump();
    });
    queue.push(followed.current);
    return { next: () => queue.next(), release: followed.release };
  }

  private unsubscribe(channel: StreamChannel): void {
    const subscription = this.channels.get(channel.name);
    if (!subscription) return this.error('not_subscribed', `not subscribed to ${quoted(channel.name)}`);
    subscription.release();
    this.channels.delete(channel.name);
    this.send({ type: 'unsubscribed', channel: channel.name });
  }

  /**
   * Pumps once the events of this turn of the event loop are in: a store message or a listing refresh
   * brings changes of many channels at once, and their frames leave in one write.
   */
  private schedulePump(): void {
    if (this.pumpScheduled) return;
    this.pumpScheduled = true;
    setImmediate(() => {
      this.pumpScheduled = false;
      this.transport?.cork();
      this.pump();
      this.transport?.uncork();
    });
  }

  /** Sends the channels' messages, one channel after another, while the socket keeps up. */
  private pump(): void {
    let sent = true;
    while (sent && this.unwritten < MAX_UNWRITTEN_FRAMES && !this.closed) {
      sent = false;
      for (const subscription of this.channels.values()) {
        const message = subscription.next();
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
    this.context.metrics?.sent(reply);
    this.unwritten++;
    this.lastSentAt = this.now();
    if (this.unwritten >= MAX_UNWRITTEN_FRAMES) this.behind.behind(this.lastSentAt);
    this.socket.send(frameBytes(reply), { binary: false }, () => {
      this.unwritten--;
      if (this.unwritten === 0) this.behind.caughtUp();
      if (this.unwritten === MAX_UNWRITTEN_FRAMES - 1) this.schedulePump();
    });
  }

  private dispose(): void {
    if (this.closed) return;
    this.closed = true;
    for (const subscription of this.channels.values()) subscription.release();
    this.channels.clear();
  }
}
