import { MarketInfo } from '../../market/market-info';
import { BookChannelFeed } from '../../market/stream/book-channel-feed';
import { bookChannelName } from '../../market/stream/stream-channel';
import { BookEventSink, BookFeedDriver, BookStore } from './book-feed-driver';

export interface FollowedBook {
  readonly feed: BookChannelFeed;
  /** Stops delivering to the sink; the last one released stops following the store. */
  release(): void;
}

interface FollowedChannel {
  readonly driver: BookFeedDriver;
  readonly sinks: Set<BookEventSink>;
}

/** The book feeds of a process: one per instrument that has a subscriber, shared by all of them. */
export class BookFeeds {
  private readonly channels = new Map<string, FollowedChannel>();

  constructor(private readonly store: BookStore) {}

  /** How many instruments are followed. */
  get size(): number {
    return this.channels.size;
  }

  follow(market: MarketInfo, sink: BookEventSink): FollowedBook {
    const { instrument } = market;
    let channel = this.channels.get(instrument);
    if (!channel) {
      const sinks = new Set<BookEventSink>();
      const feed = new BookChannelFeed(bookChannelName(instrument), market);
      const driver = new BookFeedDriver(feed, instrument, this.store, (event) => {
        for (const each of sinks) each(event);
      });
      channel = { driver, sinks };
      this.channels.set(instrument, channel);
      driver.start();
    }
    const followed = channel;
    followed.sinks.add(sink);
    return {
      feed: followed.driver.feed,
      release: () => {
        followed.sinks.delete(sink);
        if (followed.sinks.size > 0 || this.channels.get(instrument) !== followed) return;
        followed.driver.stop();
        this.channels.delete(instrument);
      },
    };
  }

  close(): void {
    for (const { driver } of this.channels.values()) driver.stop();
    this.channels.clear();
  }
}
