import { MarketInfo } from '../../market/market-info';
import { CandleMessage, candleMessage } from './candle-message';
import { LiveBarEvent } from './live-bar-driver';

/**
 * The candle frames one connection has still to send on one channel: closed bars in order, and of the
 * open bar only its newest state, so that a reader behind gets every final bar and the current one.
 */
export class CandleQueue {
  private readonly waiting: CandleMessage[] = [];

  constructor(
    private readonly channel: string,
    private readonly market: MarketInfo,
    /** Closed bars held at most; older ones are dropped first. */
    private readonly maxBacklog: number,
  ) {}

  /** Queues what the event changed; false when a waiting frame had to be dropped. */
  push(event: LiveBarEvent): boolean {
    const { changes } = event;
    for (const bar of [...changes.closed, ...changes.corrected])
      this.add(candleMessage(this.channel, this.market, bar, true));
    if (changes.open) this.add(candleMessage(this.channel, this.market, changes.open, false));
    if (this.waiting.length <= this.maxBacklog) return true;
    this.waiting.splice(0, this.waiting.length - this.maxBacklog);
    return false;
  }

  next(): CandleMessage | undefined {
    return this.waiting.shift();
  }

  private add(message: CandleMessage): void {
    const last = this.waiting.at(-1);
    // A newer state of the open bar replaces the one still waiting.
    if (last && !last.closed && !message.closed && last.time === message.time) this.waiting.pop();
    this.waiting.push(message);
  }
}
