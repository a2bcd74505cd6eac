import { TickerMessage } from './ticker-feed';

/** One connection's ticker messages not sent yet: the newest record of each market, in arrival order. */
export class TickerQueue {
  private readonly pending = new Map<string, TickerMessage>();

  push(messages: readonly TickerMessage[]): void {
    for (const message of messages) this.pending.set(message.market, message);
  }

  next(): TickerMessage | undefined {
    for (const [market, message] of this.pending) {
      this.pending.delete(market);
      return message;
    }
    return undefined;
  }
}
