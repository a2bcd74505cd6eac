import { Trade } from '../../market/trade';
import { ReconnectBackoff, ReconnectDelays } from '../../upstream/reconnect-backoff';

/** Unix milliseconds; the trades of `(from, to]` are missing (`to` is inclusive, repeats are harmless). */
export interface TradeRange {
  readonly from: number;
  readonly to: number;
}

export interface TradeBackfillOptions {
  /** The trades of a range, from the exchange's trade history. */
  readonly fetch: (range: TradeRange) => Promise<Trade[]>;
  readonly deliver: (trades: Trade[], range: TradeRange) => void;
  readonly onFailed: (error: Error, range: TradeRange) => void;
  /** Waits between failed fetches of the same range. */
  readonly retry?: Partial<ReconnectDelays>;
}

const DEFAULT_RETRY: ReconnectDelays = { initialDelayMs: 1_000, maxDelayMs: 60_000 };

/**
 * The trades one instrument's feed is known to have missed, fetched from the trade history until
 * they arrive. A range stays owed through failed fetches (a dropped connection, a timeout): it is
 * fetched again with backoff, so that a gap once seen is never forgotten even when the next
 * subscription's snapshot no longer shows it. Ranges asked for meanwhile are merged into one.
 */
export class TradeBackfill {
  private owed?: TradeRange;
  private running = false;
  private failures = 0;
  private retryTimer?: NodeJS.Timeout;
  private closed = false;
  private readonly backoff: ReconnectBackoff;

  constructor(private readonly options: TradeBackfillOptions) {
    this.backoff = new ReconnectBackoff({ ...DEFAULT_RETRY, ...options.retry });
  }

  /** The range still owed, if any. */
  get pending(): TradeRange | undefined {
    return this.owed;
  }

  /** Owes the trades of `range` as well; fetches now unless a fetch is under way. */
  request(range: TradeRange): void {
    if (this.closed || range.to <= range.from) return;
    const owed = this.owed;
    this.owed = owed ? { from: Math.min(owed.from, range.from), to: Math.max(owed.to, range.to) } : range;
    this.failures = 0;
    void this.run();
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.retryTimer);
  }

  private async run(): Promise<void> {
    if (this.running || this.closed) return;
    this.running = true;
    clearTimeout(this.retryTimer);
    try {
      while (this.owed && !this.closed) {
        const range = this.owed;
        let trades: Trade[];
        try {
          trades = await this.options.fetch(range);
        } catch (error) {
          if (this.closed) return;
          this.options.onFailed(error as Error, range);
          this.retryTimer = setTimeout(() => void this.run(), this.backoff.delay(this.failures++));
          return;
        }
        if (this.closed) return;
        this.failures = 0;
        // A range asked for meanwhile was merged into a new one, which is fetched next.
        if (this.owed === range) this.owed = undefined;
        try {
          this.options.deliver(trades, range);
        } catch (error) {
          this.options.onFailed(error as Error, range);
        }
      }
    } finally {
      this.running = false;
    }
  }
}
