import { Logger } from '@nestjs/common';
import { MarketInfo } from '../../market/market-info';
import { Trade } from '../../market/trade';
import { InstrumentChange, StateStore } from '../../store/state-store';
import { compareTradesOldestFirst } from '../../store/store-order';
import { tradeFigures } from '../views/trade-figures';
import { advance, readTail, startCursor, TradeCursor } from './trade-cursor';
import { StoreFollower } from './store-follower';
import { streamTrade, TradesChannelMessage } from './trades-message';

export type TradesSink = (message: TradesChannelMessage) => void;

export type TradeStore = Pick<StateStore, 'readTradesFrom' | 'followInstrument' | 'onReset'>;

/**
 * Follows one instrument's trades while it is started, from `startTime` on: it sends the trades each
 * write added, each once, as long as each write's trades revision follows on from the last it knows;
 * otherwise (at the start, after a lost message, a replace) it reads the stored trades from the newest
 * sent on, and again every few seconds. When the store lost its contents, or no longer holds the last
 * trade sent, it says `resyncing` and goes on from where it stood.
 */
export class TradeFeedDriver {
  private readonly logger = new Logger(TradeFeedDriver.name);
  private cursor: TradeCursor;
  private readonly follower: StoreFollower;
  /** The trades revision everything up to is sent; undefined until a read tells it. */
  private revision?: number;
  /** The revision the read under way holds at least. */
  private readingRevision?: number;
  private saidResyncing = false;

  constructor(
    readonly channel: string,
    private readonly market: MarketInfo,
    private readonly store: TradeStore,
    startTime: number,
    private readonly deliver: TradesSink,
  ) {
    this.cursor = startCursor(startTime);
    this.follower = new StoreFollower(store, market.instrument, {
      change: (change) => this.onChange(change),
      reset: () => {
        this.revision = undefined;
        this.resyncing();
      },
      read: () => this.readTrades(),
      failed: (error) => this.logger.warn(`${market.instrument}: trades unreadable: ${String(error)}`),
      recovered: () => undefined,
    });
  }

  start(): void {
    this.follower.start();
  }

  stop(): void {
    this.follower.stop();
  }

  /** Sends the trades a write added; one that does not follow on from the revision known brings a read. */
  onChange(change: InstrumentChange): void {
    const revision = change.head.tradesRevision;
    if (revision === this.revision) return;
    if (!change.replace && this.revision !== undefined && change.fromTradesRevision === this.revision) {
      this.revision = revision;
      this.send([...change.trades].sort(compareTradesOldestFirst));
      return;
    }
    this.readingRevision = Math.max(revision, this.readingRevision ?? revision);
    this.follower.refresh();
  }

  private async readTrades(): Promise<void> {
    const revision = this.readingRevision;
    this.readingRevision = undefined;
    const tail = await this.store.readTradesFrom(this.market.instrument, this.cursor.time);
    if (!this.follower.running) return;
    const reading = readTail(this.cursor, tail);
    if (reading.broken) this.resyncing();
    else if (reading.fresh.length === 0) this.saidResyncing = false;
    if (revision !== undefined) this.revision = revision;
    this.send(reading.fresh);
  }

  /** Sends the trades of `trades` (oldest first) not sent yet. */
  private send(trades: readonly Trade[]): void {
    const { fresh, cursor } = advance(this.cursor, trades);
    this.cursor = cursor;
    if (fresh.length === 0) return;
    this.saidResyncing = false;
    const sent = fresh.map((trade) => streamTrade(tradeFigures(this.market, trade)));
    this.deliver({ type: 'trades', channel: this.channel, trades: sent });
  }

  private resyncing(): void {
    if (this.saidResyncing) return;
    this.saidResyncing = true;
    this.deliver({ type: 'status', channel: this.channel, state: 'resyncing' });
  }
}
