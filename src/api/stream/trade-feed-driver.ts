import { Logger } from '@nestjs/common';
import { MarketInfo } from '../../market/market-info';
import { ChangeNotice, StateStore } from '../../store/state-store';
import { tradeFigures } from '../views/trade-figures';
import { readTail, startCursor, TradeCursor } from './trade-cursor';
import { StoreFollower } from './store-follower';
import { streamTrade, TradesChannelMessage } from './trades-message';

export type TradesSink = (message: TradesChannelMessage) => void;

export type TradeStore = Pick<StateStore, 'readTradesFrom' | 'onChange' | 'onReset'>;

/**
 * Follows one instrument's stored trades while it is started: on each notice that its trades changed
 * it reads those from the newest sent on and delivers the new ones, each once. From the start it
 * sends only trades after `startTime`. When the store lost its contents, or no longer holds the last
 * trade sent, it says `resyncing` and goes on from where it stood.
 */
export class TradeFeedDriver {
  private readonly logger = new Logger(TradeFeedDriver.name);
  private cursor: TradeCursor;
  private readonly follower: StoreFollower;
  private revision?: number;
  private saidResyncing = false;

  constructor(
    readonly channel: string,
    private readonly market: MarketInfo,
    private readonly store: TradeStore,
    startTime: number,
    private readonly deliver: TradesSink,
  ) {
    this.cursor = startCursor(startTime);
    this.follower = new StoreFollower(store, {
      reset: () => this.resyncing(),
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

  /** A change notice of the instrument: its trades are read when their revision moved. */
  notice(notice: Extract<ChangeNotice, { kind: 'instrument' }>): void {
    if (notice.tradesRevision === this.revision) return;
    this.revision = notice.tradesRevision;
    this.follower.refresh();
  }

  /** Reads the trades since the cursor; a notice during a read brings one more read after it. */
  refresh(): void {
    this.follower.refresh();
  }

  private async readTrades(): Promise<void> {
    const tail = await this.store.readTradesFrom(this.market.instrument, this.cursor.time);
    if (!this.follower.running) return;
    const reading = readTail(this.cursor, tail);
    this.cursor = reading.cursor;
    if (reading.broken) this.resyncing();
    else if (reading.fresh.length === 0) this.saidResyncing = false;
    if (reading.fresh.length === 0) return;
    this.saidResyncing = false;
    const trades = reading.fresh.map((trade) => streamTrade(tradeFigures(this.market, trade)));
    this.deliver({ type: 'trades', channel: this.channel, trades });
  }

  private resyncing(): void {
    if (this.saidResyncing) return;
    this.saidResyncing = true;
    this.deliver({ type: 'status', channel: this.channel, state: 'resyncing' });
  }
}
