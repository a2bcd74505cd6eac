import { MarketInfo } from '../../market/market-info';
import { MarketSummary } from '../../market/market-summary';
import { ListedMarket } from '../views/listing-service';
import { TickerFeed, TickerMessage } from './ticker-feed';
import { TickerQueue } from './ticker-queue';

function listed(instrument: string, last: string): ListedMarket {
  const summary = { last, lowestAsk: '0', highestBid: '0', isFrozen: false } as MarketSummary;
  return { market: { instrument } as MarketInfo, id: '1', summary };
}

/** A listing whose figures the test sets, announcing each change as the views do. */
class ChangingListing {
  ready = true;
  markets: ListedMarket[] = [listed('btc_usdt', '100'), listed('eth_usdt', '10')];
  private listener?: () => void;

  readonly listing = { markets: () => ({ generation: 0, markets: this.markets }) };
  onListingChange = (listener: () => void) => {
    this.listener = listener;
    return () => (this.listener = undefined);
  };

  set(index: number, last: string): void {
    this.markets = this.markets.map((each, at) =>
      at === index ? listed(each.market.instrument, last) : each,
    );
    this.listener?.();
  }

  get listening(): boolean {
    return this.listener !== undefined;
  }
}

const lasts = (messages: readonly TickerMessage[]) => messages.map((each) => [each.market, each.last]);

describe('TickerFeed', () => {
  it('gives every market on follow, then only the markets whose record changed', () => {
    const views = new ChangingListing();
    const feed = new TickerFeed(views.listing, views);
    const delivered: (readonly TickerMessage[])[] = [];
    const followed = feed.follow((messages) => delivered.push(messages));
    expect(lasts(followed.current)).toEqual([
      ['BTC_USDT', '100'],
      ['ETH_USDT', '10'],
    ]);
    expect(followed.current[0]).toMatchObject({ type: 'ticker', channel: 'ticker', id: '1', isFrozen: '0' });
    views.set(1, '11');
    views.set(1, '11');
    expect(delivered.map(lasts)).toEqual([[['ETH_USDT', '11']]]);
    followed.release();
    expect(views.listening).toBe(false);
  });

  it('renders only the entries the listing replaced', () => {
    const views = new ChangingListing();
    const feed = new TickerFeed(views.listing, views);
    feed.follow(() => undefined);
    let reads = 0;
    const [btc] = views.markets;
    Object.defineProperty(btc.summary, 'last', {
      get: () => {
        reads += 1;
        return '100';
      },
    });
    views.set(1, '11');
    expect(reads).toBe(0);
  });

  it('gives nothing before the listing is loaded', () => {
    const views = new ChangingListing();
    views.ready = false;
    expect(new TickerFeed(views.listing, views).follow(() => undefined).current).toEqual([]);
  });
});

describe('TickerQueue', () => {
  it('holds the newest record of each market only', () => {
    const views = new ChangingListing();
    const feed = new TickerFeed(views.listing, views);
    const queue = new TickerQueue();
    queue.push(feed.follow((messages) => queue.push(messages)).current);
    views.set(0, '101');
    views.set(0, '102');
    const sent: TickerMessage[] = [];
    for (let message = queue.next(); message; message = queue.next()) sent.push(message);
    expect(lasts(sent)).toEqual([
      ['BTC_USDT', '102'],
      ['ETH_USDT', '10'],
    ]);
  });
});
