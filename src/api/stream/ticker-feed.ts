import { summaryRecord } from '../listing/listing-records';
import { ListedMarket, ListingService } from '../views/listing-service';
import { MarketViews } from '../views/market-views';

/** A market's `/summary` record, keyed as `/summary` keys it (`BTC_USDT`). */
export type TickerMessage = {
  readonly type: 'ticker';
  readonly channel: 'ticker';
  readonly market: string;
} & ReturnType<typeof summaryRecord>;

export type TickerSink = (messages: readonly TickerMessage[]) => void;

export interface FollowedTicker {
  /** Every listed market's current record. */
  readonly current: readonly TickerMessage[];
  /** Stops delivering to the sink; the last one released stops following the listing. */
  release(): void;
}

/**
 * The ticker channel of a process: after each refresh of the listing that changed a figure, the
 * records of the markets whose `/summary` record is no longer the one last delivered.
 */
export class TickerFeed {
  private readonly sinks = new Set<TickerSink>();
  /** By market: the listing entry last looked at and the text of the record last delivered. */
  private delivered = new Map<string, { listed: ListedMarket; text: string }>();
  private stopListening?: () => void;

  constructor(
    private readonly listing: Pick<ListingService, 'markets'>,
    private readonly views: Pick<MarketViews, 'ready' | 'onListingChange'>,
  ) {}

  follow(sink: TickerSink): FollowedTicker {
    const current = this.records();
    if (this.sinks.size === 0) {
      this.delivered = new Map(
        current.map(({ listed, message }) => [message.market, { listed, text: JSON.stringify(message) }]),
      );
      this.stopListening = this.views.onListingChange(() => this.onListingChange());
    }
    this.sinks.add(sink);
    return {
      current: current.map(({ message }) => message),
      release: () => {
        if (!this.sinks.delete(sink) || this.sinks.size > 0) return;
        this.stopListening?.();
        this.stopListening = undefined;
      },
    };
  }

  close(): void {
    this.sinks.clear();
    this.stopListening?.();
    this.stopListening = undefined;
  }

  private onListingChange(): void {
    if (!this.views.ready) return;
    const delivered = new Map<string, { listed: ListedMarket; text: string }>();
    const changed: TickerMessage[] = [];
    for (const listed of this.listing.markets().markets) {
      const market = marketKey(listed);
      const last = this.delivered.get(market);
      // The same entry, the same record: only markets whose head moved are rendered again.
      if (last?.listed === listed) {
        delivered.set(market, last);
        continue;
      }
      const message = tickerMessage(listed);
      const text = JSON.stringify(message);
      delivered.set(market, { listed, text });
      if (last?.text !== text) changed.push(message);
    }
    this.delivered = delivered;
    if (changed.length === 0) return;
    for (const sink of this.sinks) sink(changed);
  }

  private records(): { listed: ListedMarket; message: TickerMessage }[] {
    if (!this.views.ready) return [];
    return this.listing.markets().markets.map((listed) => ({ listed, message: tickerMessage(listed) }));
  }
}

function marketKey(listed: ListedMarket): string {
  return listed.market.instrument.toUpperCase();
}

function tickerMessage(listed: ListedMarket): TickerMessage {
  return { type: 'ticker', channel: 'ticker', market: marketKey(listed), ...summaryRecord(listed) };
}
