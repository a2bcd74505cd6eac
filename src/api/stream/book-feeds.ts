import { MarketInfo } from '../../market/market-info';
import { BookChannelEvent } from '../../market/stream/book-channel-event';
import { BookChannelFeed } from '../../market/stream/book-channel-feed';
import { bookChannelName } from '../../market/stream/stream-channel';
import { BookEventSink, BookFeedDriver, BookStore } from './book-feed-driver';
import { SharedFeeds } from './shared-feeds';

export interface FollowedBook {
  readonly feed: BookChannelFeed;
  /** Stops delivering to the sink; the last one released stops following the store. */
  release(): void;
}

/** The book feeds of a process: one per instrument that has a subscriber, shared by all of them. */
export class BookFeeds {
  private readonly feeds = new SharedFeeds<BookFeedDriver, BookChannelEvent>();

  constructor(private readonly store: BookStore) {}

  /** How many instruments are followed. */
  get size(): number {
    return this.feeds.size;
  }

  follow(market: MarketInfo, sink: BookEventSink): FollowedBook {
    const { instrument } = market;
    const { driver, release } = this.feeds.follow(instrument, sink, (deliver) => {
      const feed = new BookChannelFeed(bookChannelName(instrument), market);
      return new BookFeedDriver(feed, instrument, this.store, deliver);
    });
    return { feed: driver.feed, release };
  }

  close(): void {
    this.feeds.close();
  }
}
