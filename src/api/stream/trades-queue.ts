import { TradesChannelMessage } from './trades-message';

/**
 * One connection's trade messages not sent yet. A connection that lets more than `maxBacklog` wait
 * loses them and is told `resyncing` instead: it catches up through `/trades/{instrument}`.
 */
export class TradesQueue {
  private queue: TradesChannelMessage[] = [];
  private head = 0;

  constructor(
    private readonly channel: string,
    private readonly maxBacklog: number,
  ) {}

  /** False when the backlog gave way to `resyncing`. */
  push(message: TradesChannelMessage): boolean {
    this.queue.push(message);
    if (this.queue.length - this.head <= this.maxBacklog) return true;
    this.queue = [{ type: 'status', channel: this.channel, state: 'resyncing' }];
    this.head = 0;
    return false;
  }

  next(): TradesChannelMessage | undefined {
    if (this.head === this.queue.length) return undefined;
    const message = this.queue[this.head++];
    if (this.head === this.queue.length) {
      this.queue = [];
      this.head = 0;
    }
    return message;
  }
}
