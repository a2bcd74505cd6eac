import { ChartResolution } from '../../market/bars/chart-resolution';
import { MarketInfo } from '../../market/market-info';
import { StateStore } from '../../store/state-store';
import { BarTradeSource, EarlierBarSource, LiveBarDriver, LiveBarEvent } from './live-bar-driver';
import { SharedFeeds } from './shared-feeds';

export type CandleSink = (event: LiveBarEvent) => void;

/** The live bars of a process: one driver per market and resolution that has a reader, shared by all of them. */
export class CandleFeeds {
  private readonly feeds = new SharedFeeds<LiveBarDriver, LiveBarEvent>();

  constructor(
    private readonly store: Pick<StateStore, 'onReset' | 'followInstrument'>,
    private readonly trades: BarTradeSource,
    private readonly earlier: EarlierBarSource,
  ) {}

  get size(): number {
    return this.feeds.size;
  }

  /**
   * Delivers the bars' changes to `sink`; `current` is the open bar when the bars are built already
   * (otherwise the first event, `initial`, brings it). `release` stops that.
   */
  follow(
    market: MarketInfo,
    resolution: ChartResolution,
    sink: CandleSink,
  ): { readonly built: boolean; readonly current: LiveBarDriver['open']; release(): void } {
    const { driver, release } = this.feeds.follow(
      `${market.instrument}.${resolution.name}`,
      sink,
      (deliver) => new LiveBarDriver(market, resolution, this.store, this.trades, deliver, this.earlier),
    );
    return { built: driver.ready, current: driver.open, release };
  }

  close(): void {
    this.feeds.close();
  }
}
