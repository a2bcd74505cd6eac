import { Logger } from '@nestjs/common';
import { MarketInfo } from '../../market/market-info';
import { StateStore } from '../../store/state-store';
import { tradeFigures } from '../views/trade-figures';
import { readTail, startCursor, TradeCursor } from './trade-cursor';
import { streamTrade, TradesChannelMessage } from './trades-message';

/** While the store cannot be read, it is tried again this often. */
const RETRY_MS = 1_000;
/** The trades are read this often even without a notice, since pub/sub may lose one. */
const RECHECK_MS = 5_000;

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
  private revision?: number;
  private reading = false;
  private readAgain = false;
  private failing = false;
  private saidResyncing = false;
  private lastReadAt = 0;
  private stopped = true;
  private timer?: NodeJS.Timeout;
  private unsubscribe: (() => void)[] = [];

  constructor(
    readonly channel: string,
    private readonly market: MarketInfo,
    private readonly store: TradeStore,
    startTime: number,
    private readonly deliver: TradesSink,
  ) {
    this.cursor = startCursor(startTime);
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.unsubscribe = [
      this.store.onChange((notice) => {
        if (notice.kind !== 'instrument' || notice.instrument !== this.market.instrument) return;
        if (notice.tradesRevision === this.revision) return;
        this.revision = notice.tradesRevision;
        this.refresh();
      }),
      this.store.onReset(() => {
        this.resyncing();
        this.refresh();
      }),
    ];
    this.timer = setInterval(() => {
      const due = this.failing ? RETRY_MS : RECHECK_MS;
      if (Date.now() - this.lastReadAt >= due) this.refresh();
    }, RETRY_MS);
    this.refresh();
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
    for (const unsubscribe of this.unsubscribe) unsubscribe();
    this.unsubscribe = [];
  }

  /** Reads the trades since the cursor; a notice during a read brings one more read after it. */
  refresh(): void {
    if (this.stopped) return;
    if (this.reading) {
      this.readAgain = true;
      return;
    }
    this.reading = true;
    this.lastReadAt = Date.now();
    const { instrument } = this.market;
    this.store
      .readTradesFrom(instrument, this.cursor.time)
      .then(
        (tail) => {
          this.failing = false;
          if (this.stopped) return;
          const reading = readTail(this.cursor, tail);
          this.cursor = reading.cursor;
          if (reading.broken) this.resyncing();
          else if (reading.fresh.length === 0) this.saidResyncing = false;
          if (reading.fresh.length === 0) return;
          this.saidResyncing = false;
          const trades = reading.fresh.map((trade) => streamTrade(tradeFigures(this.market, trade)));
          this.deliver({ type: 'trades', channel: this.channel, trades });
        },
        (error: unknown) => {
          if (!this.failing) this.logger.warn(`${instrument}: trades unreadable: ${String(error)}`);
          this.failing = true;
        },
      )
      .finally(() => {
        this.reading = false;
        if (!this.readAgain) return;
        this.readAgain = false;
        this.refresh();
      });
  }

  private resyncing(): void {
    if (this.saidResyncing) return;
    this.saidResyncing = true;
    this.deliver({ type: 'status', channel: this.channel, state: 'resyncing' });
  }
}
