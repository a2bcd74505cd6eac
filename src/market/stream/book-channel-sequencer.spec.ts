import fc from 'fast-check';
import { BookSide, LevelUpdate, PriceLevel } from '../book-update';
import { OrderBook } from '../order-book';
import { BookChannelEvent } from './book-channel-event';
import { BookChannelFeed } from './book-channel-feed';
import { BookChannelMessage } from './book-channel-message';
import { BookChannelSequencer } from './book-channel-sequencer';
import { publishedLevel } from './published-level';
import { BookReader } from './testing/book-reader';

const scales = { priceScale: 2, amountScale: 3 };
const channel = 'book.btc_usdt';

/** A feed and the connections that follow it, each event delivered to all of them. */
class Channel {
  readonly feed = new BookChannelFeed(channel, scales);
  readonly sequencers: BookChannelSequencer[] = [];

  connect(maxBacklog: number): BookChannelSequencer {
    const sequencer = new BookChannelSequencer(this.feed, { maxBacklog });
    this.sequencers.push(sequencer);
    return sequencer;
  }

  deliver(event: BookChannelEvent | undefined): void {
    if (event !== undefined) for (const sequencer of this.sequencers) sequencer.onEvent(event);
  }

  replace(version: number, bids: PriceLevel[] = [['100', '1']], asks: PriceLevel[] = [['101', '1']]): void {
    this.deliver(this.feed.replace({ version, time: version, bids, asks }));
  }

  change(version: number, bids: PriceLevel[], asks: PriceLevel[] = []): void {
    this.deliver(this.feed.apply({ version, time: version, bids, asks }));
  }

  suspend(): void {
    this.deliver(this.feed.suspend());
  }
}

function drain(sequencer: BookChannelSequencer): BookChannelMessage[] {
  const messages: BookChannelMessage[] = [];
  for (let message = sequencer.next(); message !== undefined; message = sequencer.next())
    messages.push(message);
  return messages;
}

const summary = (messages: BookChannelMessage[]) =>
  messages.map((message) =>
    message.type === 'update'
      ? `update ${message.prevSeq}→${message.seq}`
      : message.type === 'snapshot'
        ? `snapshot ${message.seq}`
        : message.state,
  );

describe('BookChannelSequencer', () => {
  it('sends a snapshot, then updates chained by prevSeq', () => {
    const stream = new Channel();
    stream.replace(10);
    const sequencer = stream.connect(8);
    stream.change(11, [['99', '1']]);
    stream.change(14, [['98', '1']]);
    expect(sequencer.backlog).toBe(0);
    const messages = drain(sequencer);
    expect(summary(messages)).toEqual(['snapshot 14']);
    stream.change(15, [['97', '1']]);
    stream.change(17, [['99', '0']]);
    expect(sequencer.backlog).toBe(2);
    expect(summary(drain(sequencer))).toEqual(['update 14→15', 'update 15→17']);
    expect(sequencer.next()).toBeUndefined();
  });

  it('says resyncing to a connection that subscribes while the book is not live, then snapshots', () => {
    const stream = new Channel();
    const sequencer = stream.connect(8);
    expect(drain(sequencer)).toEqual([{ type: 'status', channel, state: 'resyncing' }]);
    stream.replace(3);
    expect(summary(drain(sequencer))).toEqual(['snapshot 3']);
  });

  it('drops what is pending when the book stops being live, and sends nothing until a new snapshot', () => {
    const stream = new Channel();
    stream.replace(1);
    const sequencer = stream.connect(8);
    drain(sequencer);
    stream.change(2, [['99', '1']]);
    stream.change(3, [['98', '1']]);
    expect(sequencer.backlog).toBe(2);
    stream.suspend();
    expect(sequencer.backlog).toBe(0);
    stream.change(4, [['97', '1']]);
    expect(summary(drain(sequencer))).toEqual(['resyncing']);
    stream.replace(9);
    stream.change(10, [['96', '1']]);
    expect(summary(drain(sequencer))).toEqual(['snapshot 10']);
    stream.change(11, [['95', '1']]);
    expect(summary(drain(sequencer))).toEqual(['update 10→11']);
  });

  it('says resyncing even when the book is live again before the connection reads', () => {
    const stream = new Channel();
    stream.replace(1);
    const sequencer = stream.connect(8);
    drain(sequencer);
    stream.suspend();
    stream.replace(5);
    expect(summary(drain(sequencer))).toEqual(['resyncing', 'snapshot 5']);
  });

  it('says resyncing once until the next snapshot', () => {
    const stream = new Channel();
    stream.replace(1);
    const sequencer = stream.connect(8);
    drain(sequencer);
    stream.suspend();
    expect(summary(drain(sequencer))).toEqual(['resyncing']);
    stream.replace(2);
    stream.suspend();
    expect(drain(sequencer)).toEqual([]);
    stream.replace(3);
    expect(summary(drain(sequencer))).toEqual(['snapshot 3']);
    stream.suspend();
    expect(summary(drain(sequencer))).toEqual(['resyncing']);
  });

  it('sends a fresh snapshot, without a status, when the book is replaced while live', () => {
    const stream = new Channel();
    stream.replace(1);
    const sequencer = stream.connect(8);
    drain(sequencer);
    stream.change(2, [['99', '1']]);
    stream.replace(7);
    expect(summary(drain(sequencer))).toEqual(['snapshot 7']);
  });

  it('gives way to one snapshot, as fresh as the book when read, once the backlog passes the bound', () => {
    const stream = new Channel();
    stream.replace(1);
    const slow = stream.connect(2);
    const fast = stream.connect(2);
    drain(slow);
    drain(fast);
    stream.change(2, [['99', '1']]);
    stream.change(3, [['98', '1']]);
    expect([slow.backlog, slow.behind]).toEqual([2, false]);
    drain(fast);
    stream.change(4, [['97', '1']]);
    expect([slow.backlog, slow.behind, slow.conflations]).toEqual([0, true, 1]);
    stream.change(5, [['96', '1']]);
    expect(slow.backlog).toBe(0);
    expect(summary(drain(fast))).toEqual(['update 3→4', 'update 4→5']);
    const [snapshot, ...rest] = drain(slow);
    expect(rest).toEqual([]);
    expect(snapshot).toBe(stream.feed.snapshot());
    expect(snapshot).toMatchObject({ type: 'snapshot', seq: 5 });
    expect(slow.behind).toBe(false);
    stream.change(6, [['95', '1']]);
    expect(summary(drain(slow))).toEqual(['update 5→6']);
    expect(slow.conflations).toBe(1);
  });

  it('shares one update message among the connections that keep up', () => {
    const stream = new Channel();
    stream.replace(1);
    const [a, b] = [stream.connect(4), stream.connect(4)];
    drain(a);
    drain(b);
    stream.change(2, [['99', '1']]);
    expect(a.next()).toBe(b.next());
  });

  it('starts over with a snapshot when an update is at or below the seq it holds', () => {
    const stream = new Channel();
    stream.replace(5);
    const event = stream.feed.apply({ version: 6, time: 6, bids: [['99', '1']], asks: [] });
    // Subscribed and read between the feed's change and the event's delivery.
    const sequencer = stream.connect(8);
    expect(summary(drain(sequencer))).toEqual(['snapshot 6']);
    stream.deliver(event);
    expect(sequencer.backlog).toBe(0);
    expect(summary(drain(sequencer))).toEqual(['snapshot 6']);
  });

  it('needs a positive bound', () => {
    const stream = new Channel();
    expect(() => stream.connect(0)).toThrow('maxBacklog must be a positive integer, not 0');
    expect(() => stream.connect(1.5)).toThrow('maxBacklog must be a positive integer, not 1.5');
  });
});

type Step =
  /** The exchange changes the gateway's book by one version. */
  | { kind: 'delta'; updates: LevelUpdate[] }
  /** The ingest publishes its changes since the last flush; a lost one reaches the store only. */
  | { kind: 'flush'; lost: boolean }
  /** The gateway's book stops being live. */
  | { kind: 'fail' }
  /** The gateway's book is live again from a snapshot, some versions on. */
  | { kind: 'resync'; levels: LevelUpdate[]; jump: number }
  /** A feed that is not live reads the stored book. */
  | { kind: 'reload' }
  | { kind: 'read'; connection: number; count: number }
  | { kind: 'subscribe'; maxBacklog: number }
  | { kind: 'resubscribe'; connection: number };

const price = fc.oneof(
  fc.integer({ min: 4, max: 120 }).map((quarters) => `${quarters / 4}`),
  fc.constantFrom('1.125', '2.0625'),
);
const amount = fc.oneof(
  { weight: 1, arbitrary: fc.constant('0') },
  { weight: 3, arbitrary: fc.constantFrom('1', '0.5', '2.25', '0.0004', '123456789.123456789') },
);
const levelUpdate = fc.record({ side: fc.constantFrom<BookSide>('bid', 'ask'), price, amount });

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 12,
    arbitrary: fc
      .array(levelUpdate, { minLength: 1, maxLength: 4 })
      .map((updates) => ({ kind: 'delta' as const, updates })),
  },
  { weight: 8, arbitrary: fc.constant({ kind: 'flush' as const, lost: false }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'flush' as const, lost: true }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'fail' as const }) },
  {
    weight: 4,
    arbitrary: fc
      .record({ levels: fc.array(levelUpdate, { maxLength: 30 }), jump: fc.integer({ min: 1, max: 5 }) })
      .map((resync) => ({ kind: 'resync' as const, ...resync })),
  },
  { weight: 4, arbitrary: fc.constant({ kind: 'reload' as const }) },
  {
    weight: 10,
    arbitrary: fc
      .record({ connection: fc.nat(), count: fc.integer({ min: 1, max: 6 }) })
      .map((read) => ({ kind: 'read' as const, ...read })),
  },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 1, max: 4 })
      .map((maxBacklog) => ({ kind: 'subscribe' as const, maxBacklog })),
  },
  { weight: 1, arbitrary: fc.nat().map((connection) => ({ kind: 'resubscribe' as const, connection })) },
);

interface Connection {
  sequencer: BookChannelSequencer;
  readonly reader: BookReader;
  readonly maxBacklog: number;
}

const published = (book: OrderBook, side: BookSide) =>
  book.levels(side).map((level) => publishedLevel(level, scales));
const bookText = (bids: readonly PriceLevel[], asks: readonly PriceLevel[]) => JSON.stringify({ bids, asks });

/**
 * The gateway's book as the ingest keeps it, the store its flushes reach, and one API process: the
 * channel's feed, following the flushes that are not lost, and the connections reading it at their pace.
 */
class Deployment {
  private readonly gateway = new OrderBook();
  private gatewayLive = true;
  private store = new OrderBook({ trackChanges: false });
  private storeLive = true;
  private time = 0;
  private readonly stream = new Channel();
  private readonly connections: Connection[] = [];
  /** The feed's book at each version it held, as the stream writes it. */
  private readonly booksBySeq = new Map<number, string>();
  readonly seen = { conflations: 0, statuses: 0, suspensions: 0, snapshots: 0, updates: 0 };

  constructor(initial: LevelUpdate[], maxBacklogs: number[]) {
    this.gateway.replace(initial, 1, this.time);
    this.run({ kind: 'flush', lost: false });
    maxBacklogs.forEach((maxBacklog) => this.subscribe(maxBacklog));
  }

  run(step: Step): void {
    this.time++;
    switch (step.kind) {
      case 'delta':
        if (!this.gatewayLive) return;
        step.updates.forEach((update) => this.gateway.apply(update));
        this.gateway.version++;
        this.gateway.updatedAt = this.time;
        return;
      case 'flush':
        return this.flush(step.lost);
      case 'fail':
        if (!this.gatewayLive) return;
        this.gatewayLive = this.storeLive = false;
        return this.deliver(this.stream.feed.suspend());
      case 'resync':
        if (this.gatewayLive) return;
        this.gateway.replace(step.levels, this.gateway.version + step.jump, this.time);
        this.gatewayLive = true;
        return;
      case 'reload':
        if (this.stream.feed.live || !this.storeLive) return;
        return this.deliver(
          this.stream.feed.replace({
            version: this.store.version,
            time: this.store.updatedAt,
            bids: this.store.levels('bid'),
            asks: this.store.levels('ask'),
          }),
        );
      case 'read':
        return this.read(this.connections[step.connection % this.connections.length], step.count);
      case 'subscribe':
        return this.subscribe(step.maxBacklog);
      case 'resubscribe': {
        const connection = this.connections[step.connection % this.connections.length];
        const index = this.stream.sequencers.indexOf(connection.sequencer);
        connection.sequencer = new BookChannelSequencer(this.stream.feed, {
          maxBacklog: connection.maxBacklog,
        });
        this.stream.sequencers[index] = connection.sequencer;
        return;
      }
    }
  }

  /** Brings the gateway, the store and the feed to the same live book, and every connection up to date. */
  settle(): void {
    if (!this.gatewayLive) this.run({ kind: 'resync', levels: [], jump: 1 });
    this.run({ kind: 'flush', lost: false });
    this.run({ kind: 'reload' });
    expect(this.stream.feed.live).toBe(true);
    for (const connection of this.connections) this.read(connection, Infinity);
  }

  expectEveryReaderHoldsTheBook(): void {
    const gatewayBook = bookText(published(this.gateway, 'bid'), published(this.gateway, 'ask'));
    expect(bookText(this.stream.feed.published('bid'), this.stream.feed.published('ask'))).toBe(gatewayBook);
    for (const { reader, sequencer } of this.connections) {
      expect(reader.problems).toEqual([]);
      expect(reader.state).toBe('live');
      expect(bookText(reader.levels('bid'), reader.levels('ask'))).toBe(gatewayBook);
      expect(sequencer.backlog).toBe(0);
      this.seen.conflations += sequencer.conflations;
    }
  }

  private flush(lost: boolean): void {
    if (!this.gatewayLive) return;
    const fromVersion = this.store.version;
    const { version, updatedAt: time } = this.gateway;
    const { replaced, bids, asks } = this.gateway.takeChanges();
    if (replaced) {
      const levels = [
        ...bids.map(([price, amount]): LevelUpdate => ({ side: 'bid', price, amount })),
        ...asks.map(([price, amount]): LevelUpdate => ({ side: 'ask', price, amount })),
      ];
      this.store = OrderBook.fromLevels(levels, version, time);
    } else {
      for (const [price, amount] of bids) this.store.apply({ side: 'bid', price, amount });
      for (const [price, amount] of asks) this.store.apply({ side: 'ask', price, amount });
      this.store.version = version;
      this.store.updatedAt = time;
    }
    this.storeLive = true;
    if (lost) return;
    const feed = this.stream.feed;
    this.deliver(
      replaced
        ? feed.replace({ version, time, bids, asks })
        : feed.apply({ fromVersion, version, time, bids, asks }),
    );
  }

  private deliver(event: BookChannelEvent | undefined): void {
    if (event?.kind === 'suspended') this.seen.suspensions++;
    this.stream.deliver(event);
    const feed = this.stream.feed;
    if (feed.live) this.booksBySeq.set(feed.version, bookText(feed.published('bid'), feed.published('ask')));
  }

  private subscribe(maxBacklog: number): void {
    this.connections.push({
      sequencer: this.stream.connect(maxBacklog),
      reader: new BookReader(),
      maxBacklog,
    });
  }

  private read(connection: Connection, count: number): void {
    for (let taken = 0; taken < count; taken++) {
      const message = connection.sequencer.next();
      if (message === undefined) return;
      const outcome = connection.reader.read(message);
      expect(connection.reader.problems).toEqual([]);
      if (message.type === 'status') {
        this.seen.statuses++;
        continue;
      }
      this.seen[outcome === 'snapshot' ? 'snapshots' : 'updates']++;
      // The reader holds, level for level, the book the feed held at that version.
      const { reader } = connection;
      expect(bookText(reader.levels('bid'), reader.levels('ask'))).toBe(this.booksBySeq.get(message.seq));
    }
  }
}

describe('BookChannelSequencer with the reference reader', () => {
  it('leaves every reader with the book, every checksum and prevSeq verified, through resyncs, losses and conflation', () => {
    const seen = { conflations: 0, statuses: 0, suspensions: 0, snapshots: 0, updates: 0 };
    fc.assert(
      fc.property(
        fc.array(levelUpdate, { maxLength: 30 }),
        fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 3 }),
        fc.array(step, { maxLength: 200, size: 'max' }),
        (initial, maxBacklogs, steps) => {
          const deployment = new Deployment(initial, maxBacklogs);
          steps.forEach((step) => deployment.run(step));
          deployment.settle();
          deployment.expectEveryReaderHoldsTheBook();
          for (const key of Object.keys(seen) as (keyof typeof seen)[]) seen[key] += deployment.seen[key];
        },
      ),
      { numRuns: 200 },
    );
    // The runs went through every path, not only the easy one.
    for (const count of Object.values(seen)) expect(count).toBeGreaterThan(0);
  });
});
