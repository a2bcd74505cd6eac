import { summaryRecord } from '../listing/listing-records';
import { ListingService } from '../views/listing-service';
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
  private delivered = new Map<string, string>();
  private stopListening?: () => void;

  constructor(
    private readonly listing: Pick<ListingService, 'markets'>,
    private readonly views: Pick<MarketViews, 'ready' | 'onListingChange'>,
  ) {}

  follow(sink: TickerSink): FollowedTicker {
    const current = this.records();
    if (this.sinks.size === 0) {
      this.delivered = new Map(current.map((message) => [message.market, JSON.stringify(message)]));
      this.stopListening = this.views.onListingChange(() => this.onListingChange());
    }
    this.sinks.add(sink);
    return {
      current,
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
    const records = this.records();
    const delivered = new Map<string, string>();
    const changed: TickerMessage[] = [];
    for (const message of records) {
      const text = JSON.stringify(message);
      delivered.set(message.market, text);
      if (this.delivered.get(message.market) !== text) changed.push(message);
    }
    this.delivered = delivered;
    if (changed.length === 0) return;
    for (const sink of this.sinks) sink(changed);
  }

  private records(): TickerMessage[] {
    if (!this.views.ready) return [];
    return this.listing.markets().markets.map((listed) => ({
      type: 'ticker',
      channel: 'ticker',
      market: listed.market.instrument.toUpperCase(),
      ...summaryRecord(listed),
    }));
  }
}
