import { MarketInfo } from '../../market/market-info';
import { tradesChannelName } from '../../market/stream/stream-channel';
import { SharedFeeds } from './shared-feeds';
import { TradeFeedDriver, TradeStore, TradesSink } from './trade-feed-driver';
import { TradesChannelMessage } from './trades-message';

/** The trade feeds of a process: one per instrument that has a subscriber, shared by all of them. */
export class TradeFeeds {
  private readonly feeds = new SharedFeeds<TradeFeedDriver, TradesChannelMessage>();

  /** `startTime` says from when on a feed that starts now sends trades (those after it). */
  constructor(
    private readonly store: TradeStore,
    private readonly startTime: (instrument: string) => number,
  ) {}

  /** How many instruments are followed. */
  get size(): number {
    return this.feeds.size;
  }

  /** Delivers the instrument's new trades to `sink`; the returned function stops that. */
  follow(market: MarketInfo, sink: TradesSink): () => void {
    const { instrument } = market;
    const { release } = this.feeds.follow(
      instrument,
      sink,
      (deliver) =>
        new TradeFeedDriver(
          tradesChannelName(instrument),
          market,
          this.store,
          this.startTime(instrument),
          deliver,
        ),
    );
    return release;
  }

  close(): void {
    this.feeds.close();
  }
}
