import { MarketInfo } from '../../market/market-info';
import { HubClient } from '../../upstream/hub/hub-client';
import { BookFeed, BookFeedListener, BookFeedSubscription } from './book-feed';

/** Books from the SignalR hub: one `Book` stream per instrument, whose first item is the snapshot. */
export class HubBookFeed implements BookFeed {
  readonly name = 'hub';

  constructor(private readonly hub: HubClient) {}

  open(market: MarketInfo, listener: BookFeedListener): BookFeedSubscription {
    return this.hub.openBook(market.instrument, listener);
  }
}
