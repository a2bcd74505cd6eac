import { SandboxTrade } from './sandbox-trade';

export const DAY_MS = 86_400_000;

export interface WindowStats {
  readonly count: number;
  /** Sum of base amounts, in amount units. */
  readonly volume: bigint;
  /** Sum of price x amount, in price units x amount units. */
  readonly notional: bigint;
  readonly first?: SandboxTrade;
  readonly last?: SandboxTrade;
  readonly high?: bigint;
  readonly low?: bigint;
}

const EMPTY: WindowStats = { count: 0, volume: 0n, notional: 0n };

/**
 * The trades of one market in time order, kept for `retentionMs`, with running sums over the last
 * 24 hours (`now - 24h < time <= now`) and over the current UTC day.
 */
export class TradeLog {
  private trades: SandboxTrade[] = [];
  private head = 0;
  private windowStart = 0;
  private windowVolume = 0n;
  private windowNotional = 0n;
  private day = { start: 0, index: 0, volume: 0n, notional: 0n, high: 0n, low: 0n };

  constructor(private readonly retentionMs: number) {
    if (retentionMs < DAY_MS) throw new RangeError('trade retention must cover at least 24 hours');
  }

  get size(): number {
    return this.trades.length - this.head;
  }

  append(trade: SandboxTrade): void {
    this.trades.push(trade);
    this.windowVolume += trade.amount;
    this.windowNotional += trade.price * trade.amount;
    this.addToDay(trade, this.trades.length - 1);
    this.trimBefore(trade.time - this.retentionMs);
  }

  last(): SandboxTrade | undefined {
    return this.size > 0 ? this.trades[this.trades.length - 1] : undefined;
  }

  /** Trades with `from < time <= to`, oldest first. */
  between(from: number, to: number): SandboxTrade[] {
    return this.trades.slice(this.indexAfter(from), this.indexAfter(to));
  }

  /** The newest `count` trades, newest first. */
  newest(count: number): SandboxTrade[] {
    const start = Math.max(this.head, this.trades.length - count);
    return this.trades.slice(start).reverse();
  }

  rolling24h(now: number): WindowStats {
    this.expireWindowBefore(this.indexAfter(now - DAY_MS));
    const end = this.indexAfter(now);
    const count = end - this.windowStart;
    if (count <= 0) return EMPTY;
    // Trades stamped after `now` (a caller with an older clock) are outside the window.
    let volume = this.windowVolume;
    let notional = this.windowNotional;
    for (let i = end; i < this.trades.length; i++) {
      volume -= this.trades[i].amount;
      notional -= this.trades[i].price * this.trades[i].amount;
    }
    return { count, volume, notional, first: this.trades[this.windowStart], last: this.trades[end - 1] };
  }

  /** Statistics of the UTC day that contains `now`. */
  session(now: number): WindowStats {
    const count = this.day.start === now - (now % DAY_MS) ? this.trades.length - this.day.index : 0;
    if (count <= 0) return EMPTY;
    return {
      count,
      volume: this.day.volume,
      notional: this.day.notional,
      first: this.trades[this.day.index],
      last: this.trades[this.trades.length - 1],
      high: this.day.high,
      low: this.day.low,
    };
  }

  private addToDay(trade: SandboxTrade, index: number): void {
    const start = trade.time - (trade.time % DAY_MS);
    if (start !== this.day.start) {
      this.day = { start, index, volume: 0n, notional: 0n, high: trade.price, low: trade.price };
    }
    this.day.volume += trade.amount;
    this.day.notional += trade.price * trade.amount;
    if (trade.price > this.day.high) this.day.high = trade.price;
    if (trade.price < this.day.low) this.day.low = trade.price;
  }

  private trimBefore(time: number): void {
    while (this.head < this.trades.length && this.trades[this.head].time <= time) this.head++;
    this.expireWindowBefore(this.head);
    if (this.head > 4096 && this.head * 2 > this.trades.length) {
      this.trades = this.trades.slice(this.head);
      this.windowStart -= this.head;
      this.day.index = Math.max(0, this.day.index - this.head);
      this.head = 0;
    }
  }

  private expireWindowBefore(index: number): void {
    while (this.windowStart < index) {
      const expired = this.trades[this.windowStart++];
      this.windowVolume -= expired.amount;
      this.windowNotional -= expired.price * expired.amount;
    }
  }

  /** Index of the first kept trade with `time > t`. */
  private indexAfter(t: number): number {
    let low = this.head;
    let high = this.trades.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.trades[middle].time <= t) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}
