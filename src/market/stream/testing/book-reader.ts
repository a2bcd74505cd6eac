import { BookSide, PriceLevel } from '../../book-update';
import { BookChannelMessage } from '../book-channel-message';
import { bookChecksum, CHECKSUM_DEPTH } from '../book-checksum';

/**
 * What a message did to the reader: `gap` (a `prevSeq` other than the `seq` held), `bad-checksum` and
 * `unexpected` (an update with no snapshot to apply it to) each leave it `broken`, to resubscribe; a
 * broken reader `ignored` every update until the next snapshot.
 */
export type ReadOutcome =
  'snapshot' | 'update' | 'resyncing' | 'gap' | 'bad-checksum' | 'unexpected' | 'ignored';

export type ReaderState = 'waiting' | 'live' | 'resyncing' | 'broken';

/**
 * A client of a `book.{instrument}` channel as the protocol asks it to be: it replaces its book with each
 * snapshot, applies each update that follows on from the `seq` it holds, and checks the checksum after
 * every message. It trusts nothing between a `resyncing` status and the next snapshot.
 */
export class BookReader {
  private readonly sides = { bid: new Map<string, string>(), ask: new Map<string, string>() };
  private held?: number;
  private current: ReaderState = 'waiting';
  /** Each message that left the reader broken, with what was wrong. */
  readonly problems: string[] = [];

  get state(): ReaderState {
    return this.current;
  }

  /** The `seq` of the book held; undefined before the first snapshot. */
  get seq(): number | undefined {
    return this.held;
  }

  read(message: BookChannelMessage): ReadOutcome {
    switch (message.type) {
      case 'status':
        if (this.current !== 'broken') this.current = 'resyncing';
        return 'resyncing';
      case 'snapshot':
        this.sides.bid.clear();
        this.sides.ask.clear();
        this.applyLevels(message.bids, message.asks);
        this.held = message.seq;
        this.current = 'live';
        return this.verified(message.checksum, 'snapshot', message.seq);
      case 'update':
        if (this.current === 'broken') return 'ignored';
        if (this.current !== 'live')
          return this.broken('unexpected', `update ${message.seq} while ${this.current}`);
        if (message.prevSeq !== this.held)
          return this.broken('gap', `update ${message.seq} after ${message.prevSeq}, holding ${this.held}`);
        this.applyLevels(message.bids, message.asks);
        this.held = message.seq;
        return this.verified(message.checksum, 'update', message.seq);
    }
  }

  /** Best first. */
  levels(side: BookSide, limit = Infinity): PriceLevel[] {
    const sign = side === 'bid' ? -1 : 1;
    return [...this.sides[side]].sort(([a], [b]) => sign * compareDecimalText(a, b)).slice(0, limit);
  }

  private applyLevels(bids: readonly PriceLevel[], asks: readonly PriceLevel[]): void {
    for (const [side, levels] of [['bid', bids] as const, ['ask', asks] as const]) {
      for (const [price, amount] of levels) {
        if (amount === '0') this.sides[side].delete(price);
        else this.sides[side].set(price, amount);
      }
    }
  }

  private verified(checksum: number, outcome: 'snapshot' | 'update', seq: number): ReadOutcome {
    const computed = bookChecksum(this.levels('bid', CHECKSUM_DEPTH), this.levels('ask', CHECKSUM_DEPTH));
    if (computed === checksum) return outcome;
    return this.broken('bad-checksum', `${outcome} ${seq}: checksum ${checksum}, book gives ${computed}`);
  }

  private broken(outcome: ReadOutcome, problem: string): ReadOutcome {
    this.current = 'broken';
    this.problems.push(problem);
    return outcome;
  }
}

/** Exact order of two plain non-negative decimal texts, trailing zeros or not. */
export function compareDecimalText(a: string, b: string): number {
  const [integerA, fractionA = ''] = a.split('.');
  const [integerB, fractionB = ''] = b.split('.');
  const wholeA = integerA.replace(/^0+(?=\d)/, '');
  const wholeB = integerB.replace(/^0+(?=\d)/, '');
  if (wholeA.length !== wholeB.length) return wholeA.length < wholeB.length ? -1 : 1;
  if (wholeA !== wholeB) return wholeA < wholeB ? -1 : 1;
  const width = Math.max(fractionA.length, fractionB.length);
  const partA = fractionA.padEnd(width, '0');
  const partB = fractionB.padEnd(width, '0');
  return partA === partB ? 0 : partA < partB ? -1 : 1;
}
