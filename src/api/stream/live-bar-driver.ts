import { Logger } from '@nestjs/common';
import { barStart, ChartResolution, ONE_MINUTE } from '../../market/bars/chart-resolution';
import { BarChanges, BarTrade, LiveBars } from '../../market/bars/live-bar';
import { Candle } from '../../market/candle-stats';
import { MarketInfo } from '../../market/market-info';
import { TradeRows } from '../../market/trade-columns';
import { DAY_MS } from '../../market/trade-window';
import { InstrumentChange, StateStore } from '../../store/state-store';
import { StoreFollower } from './store-follower';

const ONE_MINUTE_MS = 60_000;

/** What a live bar's readers hear: what changed, and whether it is the first build (no change to announce). */
export interface LiveBarEvent {
  readonly changes: BarChanges;
  /** The bars were just built from the stored trades: `changes.open` is the bar as it stands. */
  readonly initial: boolean;
}

export type LiveBarSink = (event: LiveBarEvent) => void;

/** Where the trades of the open bar are read: the 24-hour trade list the listings (and chart bars) read. */
export type BarTradeSource = (instrument: string) => Promise<TradeRows>;

/**
 * The bar of `resolution` made of the chart history's bars starting in `[from, to)`, if any: the
 * part of an open week or month older than the trade list.
 */
export type EarlierBarSource = (
  market: MarketInfo,
  resolution: ChartResolution,
  from: number,
  to: number,
) => Promise<Candle | undefined>;

/**
 * One market's live bars at one resolution while started: built once from the stored trades of the
 * current bucket (a week or a month from the chart history up to the trade list's first whole
 * minute, and the trades from there), then kept current from each write's trades (a trade read and
 * announced counts once), read again after a lost notice; the open bar closes on a timer at its
 * bucket's end.
 */
export class LiveBarDriver {
  private readonly logger = new Logger(LiveBarDriver.name);
  private readonly bars: LiveBars;
  private readonly follower: StoreFollower;
  private revision?: number;
  private built = false;
  private seeded = false;
  /** Trades before this are in the seed of the open bar, not to be applied. */
  private tradesFrom = Number.NEGATIVE_INFINITY;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly market: MarketInfo,
    readonly resolution: ChartResolution,
    store: Pick<StateStore, 'onReset' | 'followInstrument'>,
    private readonly trades: BarTradeSource,
    private readonly deliver: LiveBarSink,
    private readonly earlier: EarlierBarSource,
    private readonly now: () => number = Date.now,
  ) {
    this.bars = new LiveBars(resolution);
    this.follower = new StoreFollower(store, market.instrument, {
      change: (change) => this.onChange(change),
      reset: () => (this.revision = undefined),
      read: () => this.read(),
      failed: (error) => this.logger.warn(`${market.instrument}: trades unreadable: ${String(error)}`),
      recovered: () => undefined,
    });
  }

  /** The open bar, once built. */
  get open() {
    return this.built ? this.bars.open : undefined;
  }

  get ready(): boolean {
    return this.built;
  }

  start(): void {
    this.follower.start();
  }

  stop(): void {
    this.follower.stop();
    clearTimeout(this.timer);
  }

  private onChange(change: InstrumentChange): void {
    const follows =
      change.replace || (this.revision !== undefined && change.fromTradesRevision === this.revision);
    this.revision = change.head.tradesRevision;
    if (change.trades.length > 0 && this.built) this.publish(this.bars.apply(change.trades, this.now()));
    if (!follows) this.follower.refresh();
  }

  private async read(): Promise<void> {
    if (!this.seeded) await this.seed();
    const rows = await this.trades(this.market.instrument);
    if (!this.follower.running) return;
    const from = Math.max(barStart(this.now(), this.resolution), this.tradesFrom);
    const fresh: BarTrade[] = [];
    for (let at = rows.length - 1; at >= 0 && rows.timeAt(at) >= from; at--) fresh.push(rows.at(at));
    const changes = this.bars.apply(fresh.reverse(), this.now());
    if (this.built) return this.publish(changes);
    this.built = true;
    this.deliver({ changes: { closed: [], corrected: [], open: this.bars.open }, initial: true });
    this.armTimer();
  }

  /** A bucket reaching past the trade list starts from the chart history's bars of its older part. */
  private async seed(): Promise<void> {
    const now = this.now();
    const from = barStart(now, this.resolution);
    // The first minute the trade list holds whole, as the chart history counts it.
    const windowFrom = barStart(now - DAY_MS, ONE_MINUTE) + ONE_MINUTE_MS;
    if (from < windowFrom) {
      const earlier = await this.earlier(this.market, this.resolution, from, windowFrom);
      if (earlier) this.bars.seed(earlier);
      this.tradesFrom = windowFrom;
    }
    this.seeded = true;
  }

  private publish(changes: BarChanges): void {
    if (changes.closed.length > 0 || changes.corrected.length > 0 || changes.open)
      this.deliver({ changes, initial: false });
    this.armTimer();
  }

  /** A timer at the open bar's end, so that it closes without waiting for the next trade. */
  private armTimer(): void {
    clearTimeout(this.timer);
    const end = this.bars.openEnd;
    if (end === undefined || !this.follower.running) return;
    // At most a day at a time: a month is past what a timer holds, and an early wake only re-arms.
    const wait = Math.min(Math.max(0, end - this.now()), DAY_MS);
    this.timer = setTimeout(() => this.publish(this.bars.close(this.now())), wait);
    this.timer.unref();
  }
}
