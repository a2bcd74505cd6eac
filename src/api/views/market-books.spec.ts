import { Logger } from '@nestjs/common';
import { PriceLevel } from '../../market/book-update';
import { MarketInfo } from '../../market/market-info';
import { BookChannelSequencer } from '../../market/stream/book-channel-sequencer';
import { BookReader, ReadOutcome } from '../../market/stream/testing/book-reader';
import { MemoryStateStore } from '../../store/memory-state-store';
import { BookView } from '../../store/state-store';
import { head } from '../../store/testing/state-store-contract';
import { BookStore } from './market-book';
import { MarketBooks } from './market-books';

const instrument = 'btc_usdt';
const settled = () => new Promise((resolve) => setTimeout(resolve, 0));
const market = (name: string): MarketInfo =>
  ({ instrument: name, priceScale: 2, amountScale: 1 }) as unknown as MarketInfo;

/**
 * The memory store as the books see it, fed as the read model feeds them (every change, each reset), with the faults of a real one: a book change it drops, a read
 * of the book it holds back until the test lets it go, a read that fails, and a reset.
 */
class FaultyStore implements BookStore {
  readonly store = new MemoryStateStore();
  dropNextChange = false;
  /** The next change comes as from a store that held no book (Redis restarted empty), before its reset is seen. */
  emptyBeforeNextChange = false;
  failReads = false;
  private heldRead?: () => void;
  private holdNextRead = false;
  /** The books fed from this store's one notice listener, as the read model feeds them. */
  books?: MarketBooks;

  constructor() {
    this.store.onChange((notice) => {
      if (notice.kind !== 'instrument') return;
      const { change } = notice;
      if (this.dropNextChange) this.dropNextChange = false;
      else if (this.emptyBeforeNextChange) {
        this.emptyBeforeNextChange = false;
        this.books?.apply({ ...change, fromVersion: undefined });
      } else this.books?.apply(change);
    });
  }

  readBook = async (name: string): Promise<BookView | undefined> => {
    if (this.failReads) throw new Error('unreachable');
    if (this.holdNextRead) {
      this.holdNextRead = false;
      await new Promise<void>((resolve) => (this.heldRead = resolve));
    }
    return this.store.readBook(name);
  };

  holdRead(): void {
    this.holdNextRead = true;
  }

  releaseRead(): void {
    this.heldRead?.();
  }

  loseContents(): void {
    this.books?.reset();
  }

  /** The periodic check against the stored heads. */
  async check(): Promise<void> {
    this.books?.check(await this.store.readHeads([instrument]));
    await settled();
  }

  async write(
    version: number,
    bids: PriceLevel[],
    asks: PriceLevel[] = [],
    replace = false,
    name = instrument,
  ) {
    await this.store.write([
      { instrument: name, replace, head: head(name, version), levels: { bids, asks } },
    ]);
    await settled();
  }

  async writeNotLive(version: number) {
    await this.store.write([
      { instrument, replace: false, head: head(instrument, version, { syncState: 'resync' }) },
    ]);
    await settled();
  }
}

/** The books of a faulty store, and one connection's reader applying every message it is sent. */
async function setUp() {
  const store = new FaultyStore();
  const books = new MarketBooks(store, Number.POSITIVE_INFINITY);
  store.books = books;
  await store.write(
    3,
    [
      ['100', '1'],
      ['99', '2'],
    ],
    [['101', '1']],
    true,
  );
  const held: { sequencer?: BookChannelSequencer } = {};
  const followed = books.follow(market(instrument), (event) => held.sequencer?.onEvent(event));
  const sequencer = new BookChannelSequencer(followed.feed, { maxBacklog: 100 });
  held.sequencer = sequencer;
  const reader = new BookReader();
  const read = (): ReadOutcome[] => {
    const outcomes: ReadOutcome[] = [];
    for (let message = sequencer.next(); message; message = sequencer.next())
      outcomes.push(reader.read(message));
    return outcomes;
  };
  /** The reader holds the stored book, at its version, with every checksum right. */
  const expectEqualToStore = async () => {
    const stored = (await store.store.readBook(instrument))!;
    const canonical = (levels: readonly PriceLevel[]) => levels.map(([p, a]) => [Number(p), Number(a)]);
    expect(reader.seq).toBe(stored.version);
    expect(canonical(reader.levels('bid'))).toEqual(canonical(stored.bids));
    expect(canonical(reader.levels('ask'))).toEqual(canonical(stored.asks));
    expect(reader.problems).toEqual([]);
  };
  await settled();
  return { store, books, followed, reader, read, expectEqualToStore };
}

describe('MarketBooks', () => {
  /** What the driver logged in the current test, as `level message`. */
  const logged: string[] = [];
  beforeEach(() => {
    logged.length = 0;
    for (const level of ['warn', 'log'] as const) {
      jest
        .spyOn(Logger.prototype, level)
        .mockImplementation((...args: unknown[]) => void logged.push(`${level} ${String(args[0])}`));
    }
  });
  afterEach(() => jest.restoreAllMocks());

  it('reads the whole book once, then sends each written change as an update of its levels', async () => {
    const { store, read, expectEqualToStore } = await setUp();
    expect(read()).toEqual(['snapshot']);
    await store.write(
      5,
      [
        ['99', '0'],
        ['98', '4'],
      ],
      [['101', '1.5']],
    );
    await store.write(6, [], [['102', '7']]);
    expect(read()).toEqual(['update', 'update']);
    await expectEqualToStore();
  });

  it('after a lost change says resyncing, reads the book again and sends it whole', async () => {
    const { store, read, expectEqualToStore } = await setUp();
    read();
    store.dropNextChange = true;
    await store.write(4, [['98', '1']]);
    await store.write(5, [['97', '1']]);
    await settled();
    expect(read()).toEqual(['resyncing', 'snapshot']);
    await store.write(6, [['96', '1']]);
    expect(read()).toEqual(['update']);
    await expectEqualToStore();
  });

  it('applies the changes written during a read after it, skipping those the read holds', async () => {
    const { store, read, expectEqualToStore } = await setUp();
    read();
    store.dropNextChange = true;
    store.holdRead();
    await store.write(4, [['98', '1']]);
    await store.write(5, [['97', '1']]);
    await store.write(6, [['100', '0']]);
    store.releaseRead();
    await settled();
    expect(read()).toEqual(['resyncing', 'snapshot']);
    await expectEqualToStore();
    await store.write(7, [], [['103', '1']]);
    expect(read()).toEqual(['update']);
    await expectEqualToStore();
  });

  it('suspends while the stored book is not live, and sends it whole when it is again', async () => {
    const { store, read, expectEqualToStore } = await setUp();
    read();
    await store.writeNotLive(4);
    expect(read()).toEqual(['resyncing']);
    await store.write(9, [['97', '1']], [['102', '3']], true);
    expect(read()).toEqual(['snapshot']);
    await expectEqualToStore();
  });

  it('says resyncing while the store cannot be read or lost its contents, and recovers', async () => {
    const { store, read, expectEqualToStore } = await setUp();
    read();
    store.failReads = true;
    store.loseContents();
    await settled();
    expect(read()).toEqual(['resyncing']);
    expect(logged).toEqual([`warn ${instrument}: book unreadable, stream resyncing: Error: unreachable`]);
    store.failReads = false;
    await store.write(4, [['98', '1']]);
    await settled();
    expect(read()).toEqual(['snapshot']);
    await expectEqualToStore();
    expect(logged.at(-1)).toBe(`log ${instrument}: store readable again`);
  });

  it('says resyncing before a whole book written to a store that held none, its reset not seen yet', async () => {
    const { store, read, expectEqualToStore } = await setUp();
    read();
    store.emptyBeforeNextChange = true;
    // The writer puts back the same book at the same version, as after Redis restarted empty.
    await store.write(
      3,
      [
        ['100', '1'],
        ['99', '2'],
      ],
      [['101', '1']],
      true,
    );
    expect(read()).toEqual(['resyncing', 'snapshot']);
    await expectEqualToStore();
  });

  it('reads the book when a version the head showed has not come by the next check', async () => {
    const { store, read, expectEqualToStore } = await setUp();
    read();
    store.dropNextChange = true;
    await store.write(4, [['98', '1']]);
    await store.check();
    expect(read()).toEqual([]);
    await store.check();
    expect(read()).toEqual(['snapshot']);
    await expectEqualToStore();
  });

  it('stops delivering to a released reader', async () => {
    const { store, followed, read } = await setUp();
    read();
    followed.release();
    await store.write(4, [['98', '1']]);
    expect(read()).toEqual([]);
  });

  it('serves the book the stream follows to /orderbook, in canonical decimals, the same levels', async () => {
    const { store, books, followed, read } = await setUp();
    read();
    await store.write(4, [['98.5', '1']]);
    const view = await books.view(market(instrument), 4);
    expect(view).toMatchObject({
      version: 4,
      bids: [
        ['100', '1'],
        ['99', '2'],
        ['98.5', '1'],
      ],
      asks: [['101', '1']],
    });
    expect(followed.feed.published('bid')).toEqual([
      ['100.00', '1.0'],
      ['99.00', '2.0'],
      ['98.50', '1.0'],
    ]);
    expect(books.size).toBe(1);
  });

  it('reads a book asked for once, then follows its changes without reading it again', async () => {
    const store = new FaultyStore();
    const books = new MarketBooks(store, Number.POSITIVE_INFINITY);
    store.books = books;
    await store.write(3, [['100', '1']], [], true);
    const reads = jest.spyOn(store, 'readBook');
    expect((await books.view(market(instrument), 3))?.bids).toEqual([['100', '1']]);
    await store.write(4, [['99', '1']]);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect((await books.view(market(instrument), 4))?.bids).toEqual([
      ['100', '1'],
      ['99', '1'],
    ]);
    expect(reads).toHaveBeenCalledTimes(1);
  });
});

describe('MarketBooks level cap', () => {
  const levels = (count: number): PriceLevel[] =>
    Array.from({ length: count }, (_, index): PriceLevel => [String(index + 1), '1']);

  async function booksOf(maxLevels: number, depths: Record<string, number>) {
    const store = new FaultyStore();
    const books = new MarketBooks(store, maxLevels);
    store.books = books;
    for (const [name, depth] of Object.entries(depths)) await store.write(1, levels(depth), [], true, name);
    return { store, books };
  }

  it('lets the least recently used books go once their levels pass the bound', async () => {
    const { books } = await booksOf(10, { a: 4, b: 4, c: 4 });
    await books.view(market('a'), 1);
    await books.view(market('b'), 1);
    await books.view(market('a'), 1);
    await books.view(market('c'), 1);
    expect(books.currentView('b', 1)).toBeUndefined();
    expect(books.currentView('a', 1)).toBeDefined();
    expect(books.currentView('c', 1)).toBeDefined();
    expect(books.heldLevels).toBe(8);
  });

  it('counts the levels a change adds or removes', async () => {
    const { store, books } = await booksOf(10, { a: 6 });
    await books.view(market('a'), 1);
    await store.write(
      2,
      [
        ['7', '1'],
        ['8', '1'],
        ['1', '0'],
      ],
      [],
      false,
      'a',
    );
    expect(books.size).toBe(1);
    expect(books.heldLevels).toBe(7);
  });

  it('keeps the book just used, however deep, and every streamed book', async () => {
    const { books } = await booksOf(10, { a: 2, s: 4, deep: 50 });
    books.follow(market('s'), () => undefined);
    await settled();
    await books.view(market('a'), 1);
    await books.view(market('deep'), 1);
    expect(books.currentView('deep', 1)).toBeDefined();
    expect(books.currentView('s', 1)).toBeDefined();
    expect(books.currentView('a', 1)).toBeUndefined();
    expect(books.heldLevels).toBe(54);
  });
});
