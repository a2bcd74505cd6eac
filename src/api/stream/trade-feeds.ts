import { MarketInfo } from '../../market/market-info';
import { tradesChannelName } from '../../market/stream/stream-channel';
import { TradeFeedDriver, TradeStore, TradesSink } from './trade-feed-driver';

interface FollowedChannel {
  readonly driver: TradeFeedDriver;
  readonly sinks: Set<TradesSink>;
}

/** The trade feeds of a process: one per instrument that has a subscriber, shared by all of them. */
export class TradeFeeds {
  private readonly channels = new Map<string, FollowedChannel>();

  /** `startTime` says from when on a feed that starts now sends trades (those after it). */
  constructor(
    private readonly store: TradeStore,
    private readonly startTime: (instrument: string) => number,
  ) {}

  /** How many instruments are followed. */
  get size(): number {
    return this.channels.size;
  }

  /** Delivers the instrument's new trades to `sink`; the returned function stops that. */
  follow(market: MarketInfo, sink: TradesSink): () => void {
    const { instrument } = market;
    let channel = this.channels.get(instrument);
    if (!channel) {
      const sinks = new Set<TradesSink>();
      const name = tradesChannelName(instrument);
      const driver = new TradeFeedDriver(name, market, this.store, this.startTime(instrument), (message) => {
        for (const each of sinks) each(message);
      });
      channel = { driver, sinks };
      this.channels.set(instrument, channel);
      driver.start();
    }
    const followed = channel;
    followed.sinks.add(sink);
    return () => {
      followed.sinks.delete(sink);
      if (followed.sinks.size > 0 || this.channels.get(instrument) !== followed) return;
      followed.driver.stop();
      this.channels.delete(instrument);
    };
  }

  close(): void {
    for (const { driver } of this.channels.values()) driver.stop();
    this.channels.clear();
  }
}
