import { Logger } from '@nestjs/common';
import { PriceLevel } from '../../market/book-update';
import { BookChannelFeed } from '../../market/stream/book-channel-feed';
import { BookChannelSequencer } from '../../market/stream/book-channel-sequencer';
import { BookReader, ReadOutcome } from '../../market/stream/testing/book-reader';
import { MemoryStateStore } from '../../store/memory-state-store';
import { InstrumentChange, BookView } from '../../store/state-store';
import { head } from '../../store/testing/state-store-contract';
import { BookFeedDriver, BookStore } from './book-feed-driver';

const instrument = 'btc_usdt';
const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * The memory store as the driver sees it, with the faults of a real one: a book change it drops, a read
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
  private reset?: () => void;

  readHeads = (instruments: readonly string[]) => this.store.readHeads(instruments);

  readBook = async (name: string): Promise<BookView | undefined> => {
    if (this.failReads) throw new Error('unreachable');
    if (this.holdNextRead) {
      this.holdNextRead = false;
      await new Promise<void>((resolve) => (this.heldRead = resolve));
    }
    return this.store.readBook(name);
  };

  followInstrument = (name: string, listener: (change: InstrumentChange) => void) =>
    this.store.followInstrument(name, (change) => {
      if (this.dropNextChange) this.dropNextChange = false;
      else if (this.emptyBeforeNextChange) {
        this.emptyBeforeNextChange = false;
        listener({ ...change, fromVersion: undefined });
      } else listener(change);
    });

  onReset = (listener: () => void) => {
    this.reset = listener;
    return () => (this.reset = undefined);
  };

  holdRead(): void {
    this.holdNextRead = true;
  }

  releaseRead(): void {
    this.heldRead?.();
  }

  loseContents(): void {
    this.reset?.();
  }

  async write(version: number, bids: PriceLevel[], asks: PriceLevel[] = [], replace = false) {
    await this.store.write([
      { instrument, replace, head: head(instrument, version), levels: { bids, asks } },
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

/** A driver on a faulty store, and one connection's reader applying every message it is sent. */
async function setUp() {
  const store = new FaultyStore();
  await store.write(
    3,
    [
      ['100', '1'],
      ['99', '2'],
    ],
    [['101', '1']],
    true,
  );
  const feed = new BookChannelFeed(`book.${instrument}`, { priceScale: 2, amountScale: 1 });
  const sequencer = new BookChannelSequencer(feed, { maxBacklog: 100 });
  const driver = new BookFeedDriver(feed, instrument, store, (event) => sequencer.onEvent(event));
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
  driver.start();
  await settled();
  return { store, driver, reader, read, expectEqualToStore };
}

describe('BookFeedDriver', () => {
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
    const { store, driver, read, expectEqualToStore } = await setUp();
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
    driver.stop();
  });

  it('after a lost change says resyncing, reads the book again and sends it whole', async () => {
    const { store, driver, read, expectEqualToStore } = await setUp();
    read();
    store.dropNextChange = true;
    await store.write(4, [['98', '1']]);
    await store.write(5, [['97', '1']]);
    await settled();
    expect(read()).toEqual(['resyncing', 'snapshot']);
    await store.write(6, [['96', '1']]);
    expect(read()).toEqual(['update']);
    await expectEqualToStore();
    driver.stop();
  });

  it('applies the changes written during a read after it, skipping those the read holds', async () => {
    const { store, driver, read, expectEqualToStore } = await setUp();
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
    driver.stop();
  });

  it('suspends while the stored book is not live, and sends it whole when it is again', async () => {
    const { store, driver, read, expectEqualToStore } = await setUp();
    read();
    await store.writeNotLive(4);
    expect(read()).toEqual(['resyncing']);
    await store.write(9, [['97', '1']], [['102', '3']], true);
    expect(read()).toEqual(['snapshot']);
    await expectEqualToStore();
    driver.stop();
  });

  it('says resyncing while the store cannot be read or lost its contents, and recovers', async () => {
    const { store, driver, read, expectEqualToStore } = await setUp();
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
    driver.stop();
  });

  it('says resyncing before a whole book written to a store that held none, its reset not seen yet', async () => {
    const { store, driver, read, expectEqualToStore } = await setUp();
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
    driver.stop();
  });

  it('reads the book when a version the head showed has not come by the next check', async () => {
    const { store, driver, read, expectEqualToStore } = await setUp();
    read();
    store.dropNextChange = true;
    await store.write(4, [['98', '1']]);
    driver.check();
    await settled();
    expect(read()).toEqual([]);
    driver.check();
    await settled();
    expect(read()).toEqual(['snapshot']);
    await expectEqualToStore();
    driver.stop();
  });

  it('stops following the store when stopped', async () => {
    const { store, driver, read } = await setUp();
    read();
    driver.stop();
    await store.write(4, [['98', '1']]);
    expect(read()).toEqual([]);
  });
});
