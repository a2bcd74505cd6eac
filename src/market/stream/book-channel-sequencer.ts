import { BookChannelEvent } from './book-channel-event';
import { BookChannelMessage, BookStatusMessage, BookUpdateMessage } from './book-channel-message';
import { BookChannelSource } from './book-channel-source';

export interface BookChannelSequencerOptions {
  /** Updates a connection may have waiting; one more and they give way to one snapshot when it reads again. */
  readonly maxBacklog: number;
}

/**
 * The messages of one book channel for one connection: a snapshot first, then updates whose `prevSeq`
 * is the `seq` of the message before; `status: resyncing` when the book stops being live, and nothing
 * more until a new snapshot. The connection takes the messages with `next()` as fast as it can write
 * them. A connection that falls behind by more than `maxBacklog` updates loses them all and owes a
 * snapshot instead; like every snapshot, it is read from the source only when the connection takes it,
 * so it is never older than the book, and the events up to then are skipped as already in it.
 */
export class BookChannelSequencer {
  private readonly queue: (BookUpdateMessage | undefined)[] = [];
  private head = 0;
  private owesSnapshot = true;
  private owesStatus = false;
  /** A status was taken, or is owed, since the last snapshot. */
  private saidResyncing = false;
  /** The `seq` of the last message queued or taken; meaningless while a snapshot is owed. */
  private lastSeq = 0;
  private fellBehind = false;
  private conflationCount = 0;
  private readonly maxBacklog: number;

  constructor(
    private readonly source: BookChannelSource,
    options: BookChannelSequencerOptions,
  ) {
    if (!Number.isInteger(options.maxBacklog) || options.maxBacklog < 1)
      throw new Error(`maxBacklog must be a positive integer, not ${options.maxBacklog}`);
    this.maxBacklog = options.maxBacklog;
  }

  get channel(): string {
    return this.source.channel;
  }

  /** Updates waiting to be taken. */
  get backlog(): number {
    return this.queue.length - this.head;
  }

  /** The connection fell behind and has not yet taken the snapshot that catches it up. */
  get behind(): boolean {
    return this.fellBehind;
  }

  /** How many times the connection's backlog gave way to a snapshot. */
  get conflations(): number {
    return this.conflationCount;
  }

  onEvent(event: BookChannelEvent): void {
    switch (event.kind) {
      case 'update': {
        if (this.owesSnapshot) return;
        const { update } = event;
        // Out of order: nothing says how the update relates to what the connection holds.
        if (update.seq <= this.lastSeq) return this.startOver();
        this.queue.push(update.message(this.lastSeq));
        this.lastSeq = update.seq;
        if (this.backlog > this.maxBacklog) {
          this.fellBehind = true;
          this.conflationCount++;
          this.startOver();
        }
        return;
      }
      case 'replaced':
        return this.startOver();
      case 'suspended':
        if (!this.saidResyncing) this.owesStatus = this.saidResyncing = true;
        return this.startOver();
    }
  }

  /** The next message to send, or undefined when there is none for now. */
  next(): BookChannelMessage | undefined {
    if (this.owesStatus || (this.owesSnapshot && !this.source.live && !this.saidResyncing)) {
      this.owesStatus = false;
      this.saidResyncing = true;
      return this.status();
    }
    if (this.owesSnapshot) {
      if (!this.source.live) return undefined;
      const snapshot = this.source.snapshot();
      this.owesSnapshot = this.saidResyncing = this.fellBehind = false;
      this.lastSeq = snapshot.seq;
      return snapshot;
    }
    if (this.head === this.queue.length) return undefined;
    const message = this.queue[this.head];
    this.queue[this.head++] = undefined;
    if (this.head === this.queue.length) this.clearQueue();
    return message;
  }

  private startOver(): void {
    this.owesSnapshot = true;
    this.clearQueue();
  }

  private clearQueue(): void {
    this.queue.length = 0;
    this.head = 0;
  }

  private status(): BookStatusMessage {
    return { type: 'status', channel: this.source.channel, state: 'resyncing' };
  }
}
