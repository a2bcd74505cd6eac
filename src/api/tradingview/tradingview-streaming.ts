import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import { chartSymbols } from '../../market/bars/chart-symbol';
import { ONE_DAY } from '../../market/bars/chart-resolution';
import { MarketInfo } from '../../market/market-info';
import { ChangeNotice, PriceLevel, StateStore } from '../../store/state-store';
import { STATE_STORE } from '../../store/store.module';
import { LiveBarDriver, LiveBarEvent } from '../stream/live-bar-driver';
import { TradeFeeds } from '../stream/trade-feeds';
import { TradesChannelMessage } from '../stream/trades-message';
import { NO_EARLIER_BARS } from '../stream/earlier-bars';
import { MarketViews } from '../views/market-views';
import { dailyBarLine, heartbeatLine, quoteLine, tradeLine } from './tradingview-streaming-lines';

/** A heartbeat goes out this often, whatever else is sent (TradingView wants one at least every 5 s). */
export const STREAMING_HEARTBEAT_MS = 4_000;
/** A reader whose socket holds this much unsent is cut off: it reconnects, and the others go on. */
export const STREAMING_MAX_UNSENT_BYTES = 1024 * 1024;

interface FollowedMarket {
  readonly market: MarketInfo;
  symbol: string;
  stopTrades: () => void;
  readonly daily: LiveBarDriver;
  /** The best bid and ask last seen, as `bid|ask` text, and the time last sent in a quote. */
  quote: string;
  quoteTime: number;
}

/**
 * `GET /tradingview/streaming`: one producer for every reader, started with the first and stopped
 * after the last. It follows every listed market's trades as the stream's trades channels do, the
 * best bid and ask from each write's notice, and today's bar from the trades; each line is built
 * once and written to every reader, in the same order, those of one turn of the event loop in one
 * write. Nothing is sent at connect: only what changes from then on, and heartbeats.
 */
@Injectable()
export class TradingViewStreaming implements OnModuleDestroy {
  private readonly readers = new Set<ServerResponse>();
  private readonly followed = new Map<string, FollowedMarket>();
  private trades?: TradeFeeds;
  private stopChanges?: () => void;
  private stopListing?: () => void;
  private heartbeat?: NodeJS.Timeout;
  private pending: string[] = [];
  private flushing?: NodeJS.Immediate;
  private closed = false;

  constructor(
    private readonly views: MarketViews,
    @Inject(STATE_STORE) private readonly store: StateStore,
  ) {}

  get readerCount(): number {
    return this.readers.size;
  }

  /** Takes over `response` (status and headers not sent yet) as a reader, until either side ends it. */
  attach(response: ServerResponse, headers: Readonly<Record<string, string | number | string[]>>): void {
    response.writeHead(200, streamingHeaders(headers));
    if (this.closed) {
      response.end();
      return;
    }
    response.flushHeaders();
    this.readers.add(response);
    response.once('close', () => {
      this.readers.delete(response);
      if (this.readers.size === 0) this.stop();
    });
    this.start();
  }

  /** Ends every reader's response (they reconnect, to another replica once this one is gone). */
  close(): void {
    this.closed = true;
    this.flush();
    for (const reader of this.readers) reader.end();
    this.readers.clear();
    this.stop();
  }

  onModuleDestroy(): void {
    this.close();
  }

  private start(): void {
    if (this.trades) return;
    // Trades after the newest the listing knows of, as a trades channel of the stream starts.
    this.trades = new TradeFeeds(
      this.store,
      (instrument) => this.views.head(instrument)?.lastTrade?.time || Date.now(),
    );
    this.stopChanges = this.store.onChange((notice) => this.onNotice(notice));
    this.stopListing = this.views.onListingChange(() => this.followListed());
    this.followListed();
    this.heartbeat = setInterval(() => this.send(heartbeatLine(Date.now())), STREAMING_HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  private stop(): void {
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    this.stopChanges?.();
    this.stopListing?.();
    this.stopChanges = this.stopListing = undefined;
    for (const followed of this.followed.values()) unfollow(followed);
    this.followed.clear();
    this.trades?.close();
    this.trades = undefined;
  }

  /** Follows every listed market, and no other. */
  private followListed(): void {
    const markets = this.views.markets();
    const symbols = chartSymbols(markets);
    const listed = new Set(markets.map((market) => market.instrument));
    for (const [instrument, followed] of this.followed)
      if (!listed.has(instrument)) {
        unfollow(followed);
        this.followed.delete(instrument);
      }
    for (const market of markets) {
      const symbol = symbols.get(market.instrument) ?? market.instrument;
      const held = this.followed.get(market.instrument);
      if (held) held.symbol = symbol;
      else this.follow(market, symbol);
    }
  }

  private follow(market: MarketInfo, symbol: string): void {
    const { instrument } = market;
    const top = this.views.topOfBook(instrument);
    const state: FollowedMarket = {
      market,
      symbol,
      stopTrades: () => undefined,
      daily: new LiveBarDriver(
        market,
        ONE_DAY,
        this.store,
        (name) => this.views.tradeList(name),
        (event) => this.onDailyBar(state, event),
        NO_EARLIER_BARS,
      ),
      quote: quoteKey(top?.bids[0], top?.asks[0]),
      quoteTime: 0,
    };
    this.followed.set(instrument, state);
    if (this.trades)
      state.stopTrades = this.trades.follow(market, (message) => this.onTrades(state, message));
    state.daily.start();
  }

  private onTrades(state: FollowedMarket, message: TradesChannelMessage): void {
    if (message.type !== 'trades') return;
    for (const trade of message.trades) {
      const line = tradeLine(state.symbol, state.market, trade);
      if (line) this.send(line);
    }
  }

  private onNotice(notice: ChangeNotice): void {
    if (notice.kind !== 'instrument') return;
    const { head } = notice.change;
    const state = this.followed.get(head.instrument);
    if (!state) return;
    const key = quoteKey(head.bestBid, head.bestAsk);
    if (key === state.quote) return;
    state.quote = key;
    // Never back in time, as TradingView checks for each symbol and kind.
    state.quoteTime = Math.max(state.quoteTime, head.bookUpdatedAt);
    const line = quoteLine(state.symbol, state.market, state.quoteTime, head.bestBid, head.bestAsk);
    if (line) this.send(line);
  }

  /** Today's bar as it changed; a correction of a day past is not sent (times never go back). */
  private onDailyBar(state: FollowedMarket, event: LiveBarEvent): void {
    const open = event.changes.open;
    if (event.initial || !open) return;
    this.send(dailyBarLine(state.symbol, state.market, open));
  }

  private send(line: string): void {
    if (this.readers.size === 0) return;
    this.pending.push(line);
    this.flushing ??= setImmediate(() => this.flush());
  }

  private flush(): void {
    if (this.flushing) clearImmediate(this.flushing);
    this.flushing = undefined;
    if (this.pending.length === 0) return;
    const chunk = this.pending.join('');
    this.pending = [];
    for (const reader of this.readers) {
      if (reader.writableLength > STREAMING_MAX_UNSENT_BYTES) reader.destroy();
      else reader.write(chunk);
    }
  }
}

function unfollow(followed: FollowedMarket): void {
  followed.stopTrades();
  followed.daily.stop();
}

function quoteKey(bid: PriceLevel | undefined, ask: PriceLevel | undefined): string {
  return `${bid?.join(':') ?? ''}|${ask?.join(':') ?? ''}`;
}

/** The response's headers: those the hooks set, and a chunked JSON stream no proxy holds back. */
export function streamingHeaders(
  headers: Readonly<Record<string, string | number | string[]>>,
): Record<string, string | number | string[]> {
  return {
    ...headers,
    'content-type': 'application/json',
    'cache-control': 'no-store',
    'x-accel-buffering': 'no',
  };
}
